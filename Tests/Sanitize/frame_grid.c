// The frame grid (Sources/CPipcamGst/frame_grid.c): a camera's frames put on the times of the recording's
// rate, counted from running time zero, and a frame that would share its grid point with the one before
// dropped.
#include "check.h"
#include "pipcam_gst.h"

#define VIDEO "video/x-raw,format=GRAY8,width=4,height=2,framerate=30/1"

static GstClockTime at_rate(guint64 frame, gint rate) { return gst_util_uint64_scale_round(frame, GST_SECOND, rate); }

/// 62 frames of a camera at 31 a second onto a grid of 30: 60 come out, one on each grid point from 0 to 59.
static void check_a_faster_camera(void) {
    GstHarness *harness = identity_harness(VIDEO);
    GstPad *input = harness_input(harness);
    pc_pad_put_frames_on_grid(input, 30, 1);
    for (guint64 k = 0; k < 62; k++) {
        GstBuffer *buffer = zeroed_buffer(8, at_rate(k, 31), at_rate(1, 31));
        GST_BUFFER_DTS(buffer) = GST_BUFFER_PTS(buffer);
        CHECK(gst_harness_push(harness, buffer) == GST_FLOW_OK, "frame %" G_GUINT64_FORMAT, k);
    }
    guint64 expected = 0;
    for (GstBuffer *out; (out = gst_harness_try_pull(harness)); expected++) {
        CHECK(GST_BUFFER_PTS(out) == at_rate(expected, 30), "picture %" G_GUINT64_FORMAT " at %" G_GUINT64_FORMAT, expected, GST_BUFFER_PTS(out));
        CHECK(GST_BUFFER_DTS(out) == GST_BUFFER_PTS(out), "its decoding time moved with it");
        gst_buffer_unref(out);
    }
    CHECK(expected == 60, "%" G_GUINT64_FORMAT " pictures, want 60", expected);
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

/// In a segment that starts at 5 s, the grid is in running time: 5.020 s is 20 ms in, nearest 33.3 ms.
static void check_running_time(void) {
    GstHarness *harness = identity_harness(VIDEO);
    GstPad *input = harness_input(harness);
    pc_pad_put_frames_on_grid(input, 30, 1);
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    segment.start = segment.time = segment.position = 5 * GST_SECOND;
    CHECK(gst_harness_push_event(harness, gst_event_new_segment(&segment)), "segment");
    CHECK(pc_pad_running_time(input, 6 * GST_SECOND) == GST_SECOND, "6 s is 1 s in");
    gst_harness_push(harness, zeroed_buffer(8, 5 * GST_SECOND + 20 * GST_MSECOND, 0));
    GstBuffer *out = gst_harness_pull(harness);
    CHECK(GST_BUFFER_PTS(out) == 5 * GST_SECOND + at_rate(1, 30), "at %" G_GUINT64_FORMAT, GST_BUFFER_PTS(out));
    gst_buffer_unref(out);
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

/// A grid with no rate leaves every frame as it came.
static void check_no_rate(void) {
    GstHarness *harness = identity_harness(VIDEO);
    GstPad *input = harness_input(harness);
    pc_pad_put_frames_on_grid(input, 0, 0);
    for (guint64 k = 0; k < 3; k++) gst_harness_push(harness, zeroed_buffer(8, k * 7 * GST_MSECOND, 0));
    for (guint64 k = 0; k < 3; k++) {
        GstBuffer *out = gst_harness_pull(harness);
        CHECK(GST_BUFFER_PTS(out) == k * 7 * GST_MSECOND, "frame %" G_GUINT64_FORMAT " unmoved", k);
        gst_buffer_unref(out);
    }
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

static GstPadProbeReturn align_to_30(GstPad *pad, GstPadProbeInfo *info, gpointer data) {
    (void)data;
    pc_probe_info_align_to_rate(pad, info, 30, 1);
    return GST_PAD_PROBE_OK;
}

/// Aligning, as the recording's picture does, keeps every frame: two near one point share it.
static void check_alignment(void) {
    GstHarness *harness = identity_harness(VIDEO);
    GstPad *input = harness_input(harness);
    gst_pad_add_probe(input, GST_PAD_PROBE_TYPE_BUFFER, align_to_30, NULL, NULL);
    gst_harness_push(harness, zeroed_buffer(8, 30 * GST_MSECOND, 0));
    gst_harness_push(harness, zeroed_buffer(8, 40 * GST_MSECOND, 0));
    for (int i = 0; i < 2; i++) {
        GstBuffer *out = gst_harness_pull(harness);
        CHECK(GST_BUFFER_PTS(out) == at_rate(1, 30), "frame %d on picture 1: %" G_GUINT64_FORMAT, i, GST_BUFFER_PTS(out));
        gst_buffer_unref(out);
    }
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    check_a_faster_camera();
    check_running_time();
    check_no_rate();
    check_alignment();
    gst_deinit();
    puts("frame grid: ok");
    return 0;
}
