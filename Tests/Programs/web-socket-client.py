#!/usr/bin/python3
"""pipcam's WebSocket from a script's side, for the web page tests: connects to
ws://127.0.0.1:PORT/api/socket, sends each COMMAND (a JSON line), and prints every message it gets for
SECONDS, one per line.

    web-socket-client.py PORT SECONDS [--header 'Name: value'] [--origin URL] [COMMAND ...]

A refused connection prints {"refused": STATUS} and nothing else.
"""
import json
import sys
import time

import websocket

port, seconds = int(sys.argv[1]), float(sys.argv[2])
headers, commands, origin = [], [], None
arguments = iter(sys.argv[3:])
for argument in arguments:
    if argument == "--header":
        headers.append(next(arguments))
    elif argument == "--origin":
        origin = next(arguments)
    else:
        commands.append(argument)

options = {"timeout": 10, "header": headers}
if origin:
    options["origin"] = origin
try:
    socket = websocket.create_connection(f"ws://127.0.0.1:{port}/api/socket", **options)
except websocket.WebSocketBadStatusException as refusal:
    print(json.dumps({"refused": refusal.status_code}))
    sys.exit(0)

for command in commands:
    socket.send(command)
deadline = time.monotonic() + seconds
while True:
    left = deadline - time.monotonic()
    if left <= 0:
        break
    socket.settimeout(left)
    try:
        message = socket.recv()
    except websocket.WebSocketTimeoutException:
        break
    print(message, flush=True)
socket.close()
