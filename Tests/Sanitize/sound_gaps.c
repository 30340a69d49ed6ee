// Sound lost on the way (Sources/CPipcamGst/sound_gaps.c): the time a stream of sound skips at a pad,
// less the gaps asked for, counted again from each new segment; and what never reached the pad's first
// sound from its source.
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

/// A device whose first sound comes `late` into the recording, and reaches the counted pad from `reached`
/// on (after a gap up to there when `gap_first`): the count it gives.
static GstClockTime lost_at_start(GstClockTime late, GstClockTime reached, gboolean gap_first) {
    GstHarness *device = identity_harness(SOUND), *join = identity_harness(SOUND);
    GstPad *source = harness_input(device), *input = harness_input(join);
    PcSoundGaps *gaps = pc_sound_gaps_new();
    pc_sound_gaps_attach(gaps, input);
    pc_sound_gaps_attach_source(gaps, source);
    push(device, late, 10 * MS);
    push(device, late + 10 * MS, 10 * MS);
    if (gap_first) CHECK(gst_harness_push_event(join, gst_event_new_gap(late, reached - late)), "gap");
    push(join, reached, 10 * MS);
    push(join, reached + 10 * MS, 10 * MS);
    GstClockTime lost = pc_sound_gaps_lost(gaps);
    pc_sound_gaps_unref(gaps);
    gst_object_unref(source);
    gst_object_unref(input);
    gst_harness_teardown(device);
    gst_harness_teardown(join);
    return lost;
}

static void check_start(GstClockTime late, GstClockTime reached, gboolean gap_first, GstClockTime want, const char *what) {
    GstClockTime lost = lost_at_start(late, reached, gap_first);
    CHECK(lost == want, "%s: lost %" G_GUINT64_FORMAT " ns, want %" G_GUINT64_FORMAT, what, lost, want);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    check_start(0, 0, FALSE, 0, "a device on time whose first sound gets through");
    check_start(150 * MS, 150 * MS, FALSE, 0, "a device starting within its usual time");
    check_start(1500 * MS, 1500 * MS, FALSE, 1300 * MS, "a device starting 1.5 s late: what is past its usual start");
    check_start(0, 300 * MS, FALSE, 300 * MS, "its first 300 ms let go on the way");
    check_start(500 * MS, 700 * MS, FALSE, 500 * MS, "late, and its first 200 ms let go");
    check_start(500 * MS, 700 * MS, TRUE, 0, "switched off from the start");

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

    pc_sound_gaps_end(gaps, 1000 * MS);
    push(harness, 1100 * MS, 10 * MS);
    check_lost(gaps, 110 * MS, "a skip over the file's end, at 1 s");
    push(harness, 1300 * MS, 10 * MS);
    check_lost(gaps, 110 * MS, "a skip past the file's end");

    pc_sound_gaps_unref(gaps);
    gst_object_unref(input);
    gst_harness_teardown(harness);
    gst_deinit();
    puts("sound gaps: ok");
    return 0;
}
