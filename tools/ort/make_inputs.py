#!/usr/bin/env python3
"""Writes the inputs the OCR model checks and benchmarks feed to rlx and ONNX Runtime, as .npy
float32 NCHW arrays, normalized the way PaddleOCR normalizes them:

  det  x: [1, 3, H, W], RGB/255 then per channel (v - mean) / std with mean (0.485, 0.456, 0.406),
          std (0.229, 0.224, 0.225); H, W in 320x320, 640x640, 480x800 (multiples of 32)
  rec  x: [B, 3, 48, W], (v/255 - 0.5) / 0.5; W in 160, 320, 640; B in 1, 8
  cls  x: [B, 3, 48, 192], (v/255 - 0.5) / 0.5; B in 1, 8 (in the batch of 8, half are turned 180°);
          and [4, 3, 48, 320] for a third size (cls has dynamic height and width too)

Two kinds of image: "noise" (every pixel uniform random) and "text": dark glyph-like shapes (bars,
boxes, diagonals, dots, arranged as characters in words and lines) on a light, slightly noisy
background. Noise alone is a weak check for det: its probability map is almost all zeros, whereas
on text-like images it reaches 1.0 over the strokes.

Standard library only (no numpy), deterministic (fixed seeds). Usage: make_inputs.py OUTDIR
Prints one line per file: "<kind> <path> <shape>".
"""
import array
import os
import random
import sys

DET_SIZES = [(320, 320), (640, 640), (480, 800)]  # (height, width)
REC_WIDTHS = [160, 320, 640]
REC_HEIGHT = 48
CLS_SIZE = (48, 192)
DET_MEAN = (0.485, 0.456, 0.406)
DET_STD = (0.229, 0.224, 0.225)


class Image:
    """An RGB image: three bytearrays (one per channel), row-major, values 0..255."""

    def __init__(self, height, width, background):
        self.height = height
        self.width = width
        self.channels = [bytearray([c]) * (height * width) for c in background]

    def fill_rect(self, x0, y0, x1, y1, color):
        x0, x1 = max(0, int(x0)), min(self.width, int(x1))
        y0, y1 = max(0, int(y0)), min(self.height, int(y1))
        if x0 >= x1 or y0 >= y1:
            return
        for ch, value in zip(self.channels, color):
            run = bytes([value]) * (x1 - x0)
            for y in range(y0, y1):
                ch[y * self.width + x0:y * self.width + x1] = run

    def line(self, x0, y0, x1, y1, thickness, color):
        steps = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        half = thickness / 2
        for i in range(steps + 1):
            t = i / steps
            x = x0 + (x1 - x0) * t
            y = y0 + (y1 - y0) * t
            self.fill_rect(x - half, y - half, x + half + 1, y + half + 1, color)

    def add_noise(self, rng, amplitude):
        for ch in self.channels:
            for i in range(len(ch)):
                ch[i] = min(255, max(0, ch[i] + rng.randint(-amplitude, amplitude)))

    def rotated_180(self):
        out = Image(self.height, self.width, (0, 0, 0))
        out.channels = [bytearray(reversed(ch)) for ch in self.channels]
        return out


def draw_glyph(img, rng, x, y, w, h, color):
    """A character-like shape in the cell (x, y, w, h): 2 to 5 strokes."""
    t = max(2, int(round(h / rng.uniform(7, 10))))
    for _ in range(rng.randint(2, 5)):
        kind = rng.choice(["hbar", "vbar", "box", "diag", "dot", "hbar", "vbar"])
        if kind == "hbar":
            yy = y + rng.uniform(0, h - t)
            img.fill_rect(x + rng.uniform(0, w * 0.3), yy, x + w - rng.uniform(0, w * 0.3), yy + t, color)
        elif kind == "vbar":
            xx = x + rng.uniform(0, w - t)
            img.fill_rect(xx, y + rng.uniform(0, h * 0.3), xx + t, y + h - rng.uniform(0, h * 0.3), color)
        elif kind == "box":
            x0, y0 = x + rng.uniform(0, w * 0.3), y + rng.uniform(0, h * 0.3)
            x1, y1 = x + w - rng.uniform(0, w * 0.3), y + h - rng.uniform(0, h * 0.3)
            img.fill_rect(x0, y0, x1, y0 + t, color)
            img.fill_rect(x0, y1 - t, x1, y1, color)
            img.fill_rect(x0, y0, x0 + t, y1, color)
            img.fill_rect(x1 - t, y0, x1, y1, color)
        elif kind == "diag":
            if rng.random() < 0.5:
                img.line(x, y, x + w - t, y + h - t, t, color)
            else:
                img.line(x + w - t, y, x, y + h - t, t, color)
        else:
            cx, cy = x + rng.uniform(0, w - 2 * t), y + rng.uniform(0, h - 2 * t)
            img.fill_rect(cx, cy, cx + 2 * t, cy + 2 * t, color)


def draw_text_line(img, rng, x, y, width, char_h, color):
    """Words of glyphs from x to x + width at baseline top y; returns nothing."""
    cx = x
    while cx < x + width:
        for _ in range(rng.randint(2, 7)):  # one word
            cw = int(char_h * rng.uniform(0.6, 1.0))
            if cx + cw > x + width:
                return
            draw_glyph(img, rng, cx, y, cw, char_h, color)
            cx += cw + max(1, int(char_h * 0.12))
        cx += int(char_h * rng.uniform(0.5, 1.2))  # space between words


def light_background(rng):
    base = rng.randint(205, 245)
    return tuple(min(255, base + rng.randint(-10, 10)) for _ in range(3))


def dark_ink(rng):
    base = rng.randint(0, 60)
    return tuple(min(255, base + rng.randint(0, 25)) for _ in range(3))


def text_page(rng, height, width):
    """A document-like page: several lines of text of varying size, separated by blank space."""
    img = Image(height, width, light_background(rng))
    y = rng.randint(8, 24)
    while True:
        char_h = rng.randint(14, 36)
        if y + char_h > height - 8:
            break
        x = rng.randint(8, max(9, width // 6))
        line_w = rng.randint(width // 3, width - x - 8)
        draw_text_line(img, rng, x, y, line_w, char_h, dark_ink(rng))
        y += char_h + rng.randint(char_h // 2, 2 * char_h)
    img.add_noise(rng, 6)
    return img


def text_crop(rng, height, width):
    """A cropped text line, as det hands rec and cls: glyphs fill most of the height."""
    img = Image(height, width, light_background(rng))
    char_h = int(height * rng.uniform(0.6, 0.8))
    y = (height - char_h) // 2 + rng.randint(-2, 2)
    draw_text_line(img, rng, rng.randint(2, 6), y, width - 8, char_h, dark_ink(rng))
    img.add_noise(rng, 6)
    return img


def noise_image(rng, height, width):
    img = Image(height, width, (0, 0, 0))
    img.channels = [bytearray(rng.getrandbits(8) for _ in range(height * width)) for _ in range(3)]
    return img


def normalize(images, mean, std):
    """NCHW float32 of (v/255 - mean[c]) / std[c], through a 256-entry table per channel."""
    out = array.array("f")
    for img in images:
        for c, ch in enumerate(img.channels):
            table = [(v / 255.0 - mean[c]) / std[c] for v in range(256)]
            out.extend(table[v] for v in ch)
    return out


def write_npy(path, data, shape):
    if sys.byteorder != "little":
        data = array.array("f", data)
        data.byteswap()
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else ""))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
        f.write(data.tobytes())


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    half = (0.5, 0.5, 0.5)

    def emit(kind, name, images, mean, std):
        shape = (len(images), 3, images[0].height, images[0].width)
        path = os.path.join(outdir, name + ".npy")
        write_npy(path, normalize(images, mean, std), shape)
        print(f"{kind} {path} {'x'.join(str(d) for d in shape)}")

    for h, w in DET_SIZES:
        rng = random.Random(1000 + h * 7 + w)
        emit("det", f"det_noise_{h}x{w}", [noise_image(rng, h, w)], DET_MEAN, DET_STD)
        emit("det", f"det_text_{h}x{w}", [text_page(rng, h, w)], DET_MEAN, DET_STD)
    for w in REC_WIDTHS:
        rng = random.Random(2000 + w)
        emit("rec", f"rec_text_b1_w{w}", [text_crop(rng, REC_HEIGHT, w)], half, half)
        emit("rec", f"rec_text_b8_w{w}", [text_crop(rng, REC_HEIGHT, w) for _ in range(8)], half, half)
    rng = random.Random(3000)
    h, w = CLS_SIZE
    emit("rec", "rec_noise_b1_w320", [noise_image(rng, REC_HEIGHT, 320)], half, half)
    emit("cls", "cls_text_b1", [text_crop(rng, h, w)], half, half)
    crops = [text_crop(rng, h, w) for _ in range(8)]
    emit("cls", "cls_text_b8", [c.rotated_180() if i % 2 else c for i, c in enumerate(crops)], half, half)
    emit("cls", "cls_text_b4_w320", [text_crop(rng, h, 320) for _ in range(4)], half, half)
    emit("cls", "cls_noise_b1", [noise_image(rng, h, w)], half, half)


if __name__ == "__main__":
    main()
