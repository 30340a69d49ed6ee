#!/usr/bin/python3
"""A webcam server on 127.0.0.1 for the network camera tests: multipart JPEG (MJPEG) over HTTP at
http://127.0.0.1:PORT/cam, 15 pictures a second, to every viewer that asks; or one that misbehaves.

    mjpeg-camera.py PORT PICTURE.jpg [FAULT]

PICTURE.jpg is sent again and again. FAULT, for the hostile-server tests:
  garbage      the headers, then bytes that are no part at all
  stall        ten pictures and half of the next, then nothing, the connection held open
  truncated    every picture cut off at half its length
  html         a web page (text/html) where pictures were expected
  silent       accepts the connection and never answers
Prints "ready PORT" once it listens; serves until it is killed.
"""
import socket
import sys
import threading
import time

port, picture_path = int(sys.argv[1]), sys.argv[2]
fault = sys.argv[3] if len(sys.argv) > 3 else None
with open(picture_path, "rb") as file:
    picture = file.read()
BOUNDARY = b"pipcamframe"
HEADERS = b"HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace; boundary=" + BOUNDARY + b"\r\n\r\n"


def part(data):
    return b"--" + BOUNDARY + b"\r\nContent-Type: image/jpeg\r\nContent-Length: " + str(len(data)).encode() + b"\r\n\r\n" + data + b"\r\n"


def serve(connection):
    try:
        connection.settimeout(30)
        request = b""
        while b"\r\n\r\n" not in request and len(request) < 65536:
            chunk = connection.recv(4096)
            if not chunk:
                return
            request += chunk
        if fault == "silent":
            time.sleep(3600)
            return
        if fault == "html":
            body = b"<html><body>camera login</body></html>"
            connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            return
        connection.sendall(HEADERS)
        if fault == "garbage":
            while True:
                connection.sendall(b"\x00\xff garbage that is no part \x13\x37" * 64)
                time.sleep(1 / 15)
        if fault == "stall":
            for _ in range(10):
                connection.sendall(part(picture))
                time.sleep(1 / 15)
            connection.sendall(part(picture)[: len(picture) // 2])
            time.sleep(3600)
            return
        data = picture[: len(picture) // 2] if fault == "truncated" else picture
        while True:
            connection.sendall(part(data))
            time.sleep(1 / 15)
    except OSError:
        pass
    finally:
        connection.close()


listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(8)
print(f"ready {listener.getsockname()[1]}", flush=True)
while True:
    accepted, _ = listener.accept()
    threading.Thread(target=serve, args=(accepted,), daemon=True).start()
