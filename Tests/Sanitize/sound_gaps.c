// Sound lost on the way (Sources/CPipcamGst/sound_gaps.c): the time a stream of sound skips at a pad,
// less the gaps asked for, counted again from each new segment.
#include "check.h"
#include "pipcam_gst.h"

#define SOUND "audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=1"
#define MS GST_MSECOND

static void push(GstHarness *harness, GstClockTime pts, GstClockTime duration) {
    CHECK(gst_harness_push(harness, zeroed_buffer(2, pts, duration)) == GST_FLOW_OK, "buffer at %" G_GUINT64_FORMAT, pts);
    gst_buffer_unref(gst_harness_pull(harness));
}

static void check_lost(PcSoundGaps *gaps, GstClockTime want, const char *after) {
    GstClockTime lost = pc_sound_gaps_lost(gaps);
    CHECK(lost == want, "after %s: lost %" G_GUINT64_FORMAT " ns, want %" G_GUINT64_FORMAT, after, lost, want);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    GstHarness *harness = identity_harness(SOUND);
    GstPad *input = harness_input(harness);
    PcSoundGaps *gaps = pc_sound_gaps_new();
    pc_sound_gaps_attach(gaps, input);

    push(harness, 0, 10 * MS);
    push(harness, 10 * MS, 10 * MS);
    check_lost(gaps, 0, "two buffers end to end");
    push(harness, 50 * MS, 10 * MS);
    check_lost(gaps, 30 * MS, "a buffer 30 ms after the one before ends");
    CHECK(gst_harness_push_event(harness, gst_event_new_gap(60 * MS, 40 * MS)), "gap");
    push(harness, 100 * MS, 10 * MS);
    check_lost(gaps, 30 * MS, "a gap asked for");
    push(harness, 105 * MS, 10 * MS);
    push(harness, 115 * MS + MS / 2, 10 * MS);
    check_lost(gaps, 30 * MS, "an overlap, and half a millisecond of rounding");

    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    CHECK(gst_harness_push_event(harness, gst_event_new_segment(&segment)), "segment");
    push(harness, 900 * MS, 10 * MS);
    check_lost(gaps, 30 * MS, "a new segment");
    push(harness, 930 * MS, 10 * MS);
    check_lost(gaps, 50 * MS, "20 ms skipped in the new segment");

    pc_sound_gaps_unref(gaps);
    gst_object_unref(input);
    gst_harness_teardown(harness);
    gst_deinit();
    puts("sound gaps: ok");
    return 0;
}
