// The sync signals (Sources/CPipcamGst/sync_signals.c): the sync camera's flash and the sync microphone's
// beep, on for the first 100 ms of each second of the monotonic clock. The element runs on the system
// clock with a base time of 10 s, so running time 0.95 s is 10.95 s on that clock.
#include "check.h"
#include "pipcam_gst.h"
#include "internal.h"

#define MS (GST_MSECOND)
#define WIDTH 64
#define HEIGHT 48

static GstHarness *on_the_system_clock(const gchar *caps) {
    GstHarness *harness = identity_harness(caps);
    gst_harness_use_systemclock(harness);
    gst_element_set_base_time(harness->element, 10 * GST_SECOND);
    return harness;
}

static void check_lit(void) {
    CHECK(pc_sync_lit(11 * GST_SECOND, 0) == 0, "nothing of nothing");
    CHECK(pc_sync_lit(10950 * MS, 100 * MS) == 50 * MS, "half of a picture across a second");
    CHECK(pc_sync_lit(11900 * MS, 1200 * MS) == 200 * MS, "two flashes in a long one");
    CHECK(pc_sync_lit(11100 * MS, 900 * MS) == 0, "between flashes");
}

/// A picture's luma is the share of its time the lamp was on (16 dark to 235 lit); chroma is left alone.
static void check_flash(GstHarness *harness, GstClockTime pts, GstClockTime duration, guint8 luma) {
    gsize size = WIDTH * HEIGHT * 3 / 2;
    GstBuffer *buffer = zeroed_buffer(size, pts, duration);
    GstBuffer *held = gst_buffer_ref(buffer);
    gst_harness_push(harness, buffer);
    GstBuffer *out = gst_harness_pull(harness);
    GstMapInfo map;
    CHECK(gst_buffer_map(out, &map, GST_MAP_READ), "mapped");
    for (gsize i = 0; i < size; i++) {
        guint8 want = i < WIDTH * HEIGHT ? luma : 0;
        CHECK(map.data[i] == want, "picture at %" G_GUINT64_FORMAT ": byte %zu is %u, want %u", pts, i, map.data[i], want);
    }
    gst_buffer_unmap(out, &map);
    CHECK(gst_buffer_memcmp(held, 0, (guint8[4]){0}, 4) == 0, "the held original not drawn on");
    gst_buffer_unref(held);
    gst_buffer_unref(out);
}

static void check_flashes(void) {
    GstHarness *harness = on_the_system_clock("video/x-raw,format=I420,width=64,height=48,framerate=10/1");
    GstPad *input = harness_input(harness);
    pc_pad_draw_sync_flashes(input);
    check_flash(harness, 950 * MS, 100 * MS, 126);
    check_flash(harness, 1000 * MS, 100 * MS, 235);
    check_flash(harness, 1100 * MS, 100 * MS, 0);
    check_flash(harness, 1900 * MS, 1200 * MS, 53);
    check_flash(harness, 1000 * MS, GST_CLOCK_TIME_NONE, 0);
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

/// 100 ms of silence at 48 kHz from `pts`, heard `heard_after` late: the gap flag cleared, and the beep
/// from `first` on (a 1 kHz sine from a rising zero: its top a quarter of a millisecond in, 12 samples).
static void check_beep(GstClockTime pts, gint64 heard_after, gsize first) {
    GstHarness *harness = on_the_system_clock("audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=1");
    GstPad *input = harness_input(harness);
    pc_pad_sound_sync_beeps(input, heard_after);
    GstBuffer *buffer = zeroed_buffer(4800 * 2, pts, 100 * MS);
    GST_BUFFER_FLAG_SET(buffer, GST_BUFFER_FLAG_GAP);
    gst_harness_push(harness, buffer);
    GstBuffer *out = gst_harness_pull(harness);
    CHECK(!GST_BUFFER_FLAG_IS_SET(out, GST_BUFFER_FLAG_GAP), "silence played, not a gap");
    GstMapInfo map;
    CHECK(gst_buffer_map(out, &map, GST_MAP_READ), "mapped");
    const gint16 *samples = (const gint16 *)map.data;
    for (gsize i = 0; i < first; i++) CHECK(samples[i] == 0, "sample %zu before the beep is %d", i, samples[i]);
    CHECK(samples[first] == 0, "the beep starts at zero");
    CHECK(ABS(samples[first + 12] - 16384) <= 1, "its top: %d", samples[first + 12]);
    CHECK(ABS(samples[first + 24]) <= 1, "its half-way zero: %d", samples[first + 24]);
    CHECK(ABS(samples[first + 36] + 16384) <= 1, "its bottom: %d", samples[first + 36]);
    gst_buffer_unmap(out, &map);
    gst_buffer_unref(out);
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

/// Sound the beep cannot be written into (stereo) passes as it came.
static void check_stereo_left_alone(void) {
    GstHarness *harness = on_the_system_clock("audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=2");
    GstPad *input = harness_input(harness);
    pc_pad_sound_sync_beeps(input, 0);
    gst_harness_push(harness, zeroed_buffer(4800 * 4, 950 * MS, 100 * MS));
    GstBuffer *out = gst_harness_pull(harness);
    GstMapInfo map;
    CHECK(gst_buffer_map(out, &map, GST_MAP_READ), "mapped");
    for (gsize i = 0; i < map.size; i++) CHECK(map.data[i] == 0, "byte %zu written", i);
    gst_buffer_unmap(out, &map);
    gst_buffer_unref(out);
    gst_object_unref(input);
    gst_harness_teardown(harness);
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    check_lit();
    check_flashes();
    check_beep(950 * MS, 0, 2400);
    check_beep(950 * MS, -25 * (gint64)MS, 3600);
    check_stereo_left_alone();
    gst_deinit();
    puts("sync signals: ok");
    return 0;
}
