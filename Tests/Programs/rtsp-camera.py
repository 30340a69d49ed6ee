#!/usr/bin/python3
"""An IP camera on 127.0.0.1 for the network camera tests: GstRtspServer serving a live test pattern
as H.264 over RTP at rtsp://127.0.0.1:PORT/cam.

    rtsp-camera.py PORT PATTERN [USER:PASSWORD]

PORT 0 takes a free port. Prints "ready PORT" once it listens, then serves until it is killed.
With USER:PASSWORD, only that user (basic authentication) may watch.
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

Gst.init(None)
port, pattern = sys.argv[1], sys.argv[2]
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(port)

factory = GstRtspServer.RTSPMediaFactory()
# A key frame every second, and the stream's headers with each, so a camera called again starts at once.
factory.set_launch(
    f"( videotestsrc is-live=true pattern={pattern} ! video/x-raw,width=640,height=360,framerate=15/1 "
    "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! rtph264pay name=pay0 pt=96 config-interval=-1 )"
)
factory.set_shared(True)

if len(sys.argv) > 3:
    user, password = sys.argv[3].split(":", 1)
    auth = GstRtspServer.RTSPAuth()
    token = GstRtspServer.RTSPToken()
    token.set_string("media.factory.role", "viewer")
    auth.add_basic(GstRtspServer.RTSPAuth.make_basic(user, password), token)
    server.set_auth(auth)
    role = Gst.Structure.from_string("viewer, media.factory.access=(boolean)true, media.factory.construct=(boolean)true")[0]
    factory.add_role_from_structure(role)

server.get_mount_points().add_factory("/cam", factory)
if server.attach(None) == 0:
    sys.exit(f"rtsp-camera: cannot listen on port {port}")
print(f"ready {server.get_bound_port()}", flush=True)
GLib.MainLoop().run()
