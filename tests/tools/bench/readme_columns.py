"""bench/README.md's column tables, read once for every checker of bench's output."""
import re
import sys


def documented_columns(readme_path, heading):
    """The column names of the table under the Markdown heading `heading` ("### Columns"),
    in order; exits naming the README when there is none."""
    names, in_section = [], False
    for line in open(readme_path, encoding="utf-8"):
        if line.startswith("#"):
            in_section = line.strip().lower() == heading.lower()
            continue
        m = re.match(r"\|\s*`([a-z0-9_]+)`\s*\|", line)
        if in_section and m:
            names.append(m.group(1))
    if not names:
        sys.exit(f"no '{heading}' column table found in {readme_path}")
    return names
