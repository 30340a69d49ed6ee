#!/usr/bin/python3
"""Reads Prometheus's text format on standard input with prometheus_client's own parser and prints each
sample as a JSON line: {"name": …, "labels": {…}, "value": …, "type": …}. A text the parser refuses ends
with its error and status 1."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

try:
    for family in text_string_to_metric_families(sys.stdin.read()):
        for sample in family.samples:
            print(json.dumps({"name": sample.name, "labels": sample.labels, "value": sample.value, "type": family.type}))
except Exception as error:  # the parser's refusal is the finding
    print(f"refused: {error}", file=sys.stderr)
    sys.exit(1)
