"""Writes N bytes of text (lines of words from a Zipf-like vocabulary) for wordcount.

Usage: words.py BYTES OUT
"""
import random
import sys


def main():
    total, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(42)
    vocab = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(2, 10)))
             for _ in range(20000)]
    weights = [1.0 / (r + 1) for r in range(len(vocab))]
    # A few MiB of distinct lines, then shuffled copies of them: fast, and far from uniform.
    lines = []
    size = 0
    while size < 4 << 20:
        line = " ".join(rng.choices(vocab, weights, k=12)) + "\n"
        lines.append(line.encode())
        size += len(lines[-1])
    written = 0
    with open(out, "wb") as f:
        while written < total:
            rng.shuffle(lines)
            chunk = b"".join(lines)
            chunk = chunk[: total - written]
            cut = chunk.rfind(b"\n") + 1 if written + len(chunk) < total else len(chunk)
            f.write(chunk[:cut] if cut > 0 else chunk)
            written += cut if cut > 0 else len(chunk)


if __name__ == "__main__":
    main()
