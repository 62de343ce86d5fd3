# SPDX-License-Identifier: Apache-2.0
"""The table printer the bench scripts share: Markdown (for the docs) or aligned plain text."""


def print_table(header, rows, markdown, alignments=None):
    """Prints `rows` (tuples of strings) under `header`. `alignments`: one Markdown alignment cell per column
    (e.g. "---:" for numbers), "---" for every column when not given."""
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join(alignments or ["---"] * len(header)) + "|")
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(r[i]) for r in list(rows) + [header]) for i in range(len(header))]
        for r in [header] + list(rows):
            print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
