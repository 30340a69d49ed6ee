#!/usr/bin/python3
"""An IP camera on 127.0.0.1 for the network camera tests: GstRtspServer serving a live test pattern
as H.264 over RTP at rtsp://127.0.0.1:PORT/cam, with its microphone's sound: an 880 Hz tone in Opus.

    rtsp-camera.py PORT PATTERN [USER:PASSWORD]

PORT 0 takes a free port. Prints "ready PORT" once it listens, then serves until it is killed.
With USER:PASSWORD, only that user (basic authentication) may watch.

PATTERN is a videotestsrc pattern, or "sync": pipcam's sync camera, served. Black, lit for the first
100 ms of each second of the system's monotonic clock (the clock pipcam's pipelines run on too), each
picture as bright as the share of its time that falls in a flash, so a recording can measure where
pipcam placed a network camera's pictures against its own sync microphone's beeps. Its sound beeps
(1 kHz) with the flashes instead of the tone, to 5 ms, and it sends its sender reports from the start.
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
source = "pattern=solid-color foreground-color=0xff000000" if pattern == "sync" else f"pattern={pattern}"
# The sync camera beeps with its flashes (1 kHz, in pieces of 5 ms); other cameras hum at 880 Hz.
sound = "freq=1000 volume=0 samplesperbuffer=240" if pattern == "sync" else "freq=880 volume=0.4"
factory.set_launch(
    f"( videotestsrc name=camera is-live=true {source} ! video/x-raw,width=640,height=360,framerate=15/1 "
    "! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=15 ! rtph264pay name=pay0 pt=96 config-interval=-1 "
    f"audiotestsrc name=sound is-live=true {sound} ! audio/x-raw,rate=48000,channels=1 ! opusenc ! rtpopuspay name=pay1 pt=97 )"
)
factory.set_shared(True)

FRAME = Gst.SECOND // 15
FLASH = Gst.SECOND // 10


def lit_share(start):
    """The share of the picture that begins at clock time `start` that falls in a flash."""
    end, second = start + FRAME, start - start % Gst.SECOND
    lit = 0
    for flash in (second, second + Gst.SECOND):
        lit += max(0, min(end, flash + FLASH) - max(start, flash))
    return lit / FRAME


def light_next_picture(pad, info, camera):
    """videotestsrc draws its next picture once this one is pushed: colour it for its time."""
    buffer = info.get_buffer()
    if buffer.pts != Gst.CLOCK_TIME_NONE:
        level = round(255 * lit_share(camera.get_base_time() + buffer.pts + FRAME))
        camera.set_property("foreground-color", 0xFF000000 | level << 16 | level << 8 | level)
    return Gst.PadProbeReturn.OK


def sound_next_piece(pad, info, sound):
    """audiotestsrc makes its next piece once this one is pushed: a beep while it starts in a flash."""
    buffer = info.get_buffer()
    if buffer.pts != Gst.CLOCK_TIME_NONE:
        start = sound.get_base_time() + buffer.pts + buffer.duration
        sound.set_property("volume", 0.5 if start % Gst.SECOND < FLASH else 0.0)
    return Gst.PadProbeReturn.OK


def report_clocks_soon(media):
    """Sender reports from the start, as RFC 6051 asks: they tell a receiver how the camera's pictures
    and sound relate, and until the first the two are placed as they arrive. At the server's usual 5 s
    interval the first came 2.3 to 3.3 s in, and the sync camera's flashes before it were a picture
    further from their beeps (+86 to +100 ms) than those after (+23 to +33 ms)."""
    for index in range(media.n_streams()):
        session = media.get_stream(index).get_rtpsession()
        session.set_property("rtcp-min-interval", 500 * Gst.MSECOND)


def media_configured(factory, media):
    media.connect("prepared", report_clocks_soon)
    camera = media.get_element().get_by_name("camera")
    camera.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, light_next_picture, camera)
    sound = media.get_element().get_by_name("sound")
    sound.get_static_pad("src").add_probe(Gst.PadProbeType.BUFFER, sound_next_piece, sound)


if pattern == "sync":
    factory.connect("media-configure", media_configured)

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
