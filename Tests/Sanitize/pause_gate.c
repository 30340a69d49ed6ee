// The pause gate (Sources/CPipcamGst/pause_gate.c): its arithmetic, the frames it drops and moves on
// an encoder's input, and its life when the probes holding it outlive the Swift object that made it.
#include "check.h"
#include "pipcam_gst.h"

#define MS (GST_MSECOND)
#define VIDEO "video/x-raw,format=GRAY8,width=4,height=2,framerate=30/1"

static GstClockTime frame_time(guint64 frame) { return gst_util_uint64_scale_round(frame, GST_SECOND, 30); }

static void check_arithmetic(void) {
    PcPauseGate *gate = pc_pause_gate_new(0, 0);
    GstClockTime total = 0;
    CHECK(pc_pause_gate_file_time(gate, 2 * GST_SECOND) == 2 * GST_SECOND, "no pause: unmoved");
    CHECK(pc_pause_gate_pause(gate, 3 * GST_SECOND), "a first pause opens");
    CHECK(!pc_pause_gate_pause(gate, 4 * GST_SECOND), "paused already");
    CHECK(pc_pause_gate_file_time(gate, 5 * GST_SECOND) == 3 * GST_SECOND, "inside a pause: where it began");
    CHECK(pc_pause_gate_open_since(gate, 5 * GST_SECOND, &total) == 3 * GST_SECOND && total == 2 * GST_SECOND, "open for 2 s");
    CHECK(pc_pause_gate_resume(gate, 6 * GST_SECOND) == 3 * GST_SECOND, "lasted 3 s");
    CHECK(pc_pause_gate_resume(gate, 7 * GST_SECOND) == GST_CLOCK_TIME_NONE, "not paused");
    CHECK(pc_pause_gate_file_time(gate, 7 * GST_SECOND) == 4 * GST_SECOND, "after it: 3 s earlier");
    CHECK(pc_pause_gate_pause(gate, 8 * GST_SECOND) && pc_pause_gate_resume(gate, 9 * GST_SECOND) == GST_SECOND, "a second pause");
    CHECK(pc_pause_gate_open_since(gate, 10 * GST_SECOND, &total) == GST_CLOCK_TIME_NONE && total == 4 * GST_SECOND, "4 s in all");
    pc_pause_gate_unref(gate);

    gate = pc_pause_gate_new(30, 1);
    CHECK(pc_pause_gate_pause(gate, 1010 * MS), "on a grid");
    CHECK(pc_pause_gate_open_since(gate, 2 * GST_SECOND, &total) == frame_time(31), "from picture 31");
    CHECK(pc_pause_gate_resume(gate, 2050 * MS) == frame_time(62) - frame_time(31), "to picture 62");
    pc_pause_gate_unref(gate);
}

/// Frames 0 to 89 at 30 a second through a gate paused from 1.010 s to 2.050 s: 31 to 61 are left out,
/// and 62 on follow 30 a frame later; a frame the probe may not write is copied, never changed.
static void check_frames(void) {
    PcPauseGate *gate = pc_pause_gate_new(30, 1);
    GstHarness *harness = identity_harness(VIDEO);
    GstPad *input = harness_input(harness);
    pc_pause_gate_attach(gate, input);
    for (guint64 k = 0; k < 90; k++) {
        if (k == 31) pc_pause_gate_pause(gate, 1010 * MS);
        if (k == 62) pc_pause_gate_resume(gate, 2050 * MS);
        GstBuffer *buffer = zeroed_buffer(8, frame_time(k), frame_time(k + 1) - frame_time(k));
        GST_BUFFER_DTS(buffer) = frame_time(k);
        GstBuffer *held = gst_buffer_ref(buffer);
        CHECK(gst_harness_push(harness, buffer) == GST_FLOW_OK, "frame %" G_GUINT64_FORMAT " pushed", k);
        CHECK(GST_BUFFER_PTS(held) == frame_time(k), "frame %" G_GUINT64_FORMAT ": the held original unchanged", k);
        gst_buffer_unref(held);
        GstBuffer *out = gst_harness_try_pull(harness);
        if (k >= 31 && k < 62) {
            CHECK(out == NULL, "frame %" G_GUINT64_FORMAT " is inside the pause", k);
            continue;
        }
        GstClockTime want = k < 31 ? frame_time(k) : frame_time(k) - (frame_time(62) - frame_time(31));
        CHECK(out != NULL, "frame %" G_GUINT64_FORMAT " passes", k);
        CHECK(GST_BUFFER_PTS(out) == want && GST_BUFFER_DTS(out) == want, "frame %" G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT
              ", want %" G_GUINT64_FORMAT, k, GST_BUFFER_PTS(out), want);
        gst_buffer_unref(out);
    }
    gst_object_unref(input);
    gst_harness_teardown(harness);
    pc_pause_gate_unref(gate);
}

/// A gate on a picture's and a sound's input, let go by its maker at once (as a Swift object may be):
/// the probes keep it until the last of them is removed.
static void check_life(void) {
    PcPauseGate *gate = pc_pause_gate_new(30, 1);
    GstHarness *picture = identity_harness(VIDEO);
    GstHarness *sound = identity_harness("audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=1");
    GstPad *pictureInput = harness_input(picture), *soundInput = harness_input(sound);
    pc_pause_gate_attach(gate, pictureInput);
    pc_pause_gate_attach(gate, soundInput);
    pc_pause_gate_pause(gate, 100 * MS);
    pc_pause_gate_unref(gate);
    for (guint64 k = 0; k < 10; k++) {
        gst_harness_push(picture, zeroed_buffer(8, frame_time(k), 0));
        gst_harness_push(sound, zeroed_buffer(960, k * 40 * MS, 10 * MS));
    }
    CHECK(gst_harness_buffers_received(picture) == 3 && gst_harness_buffers_received(sound) == 3,
          "before the pause: %u pictures, %u sounds", gst_harness_buffers_received(picture), gst_harness_buffers_received(sound));
    gst_object_unref(pictureInput);
    gst_harness_teardown(picture);
    gst_harness_push(sound, zeroed_buffer(960, 0, 10 * MS));
    gst_object_unref(soundInput);
    gst_harness_teardown(sound);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    check_arithmetic();
    check_frames();
    check_life();
    gst_deinit();
    puts("pause gate: ok");
    return 0;
}
