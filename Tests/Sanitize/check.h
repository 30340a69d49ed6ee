// What the C test drivers share: a check that names what failed and where, and a harness of one
// `identity` whose sink pad the probes under test sit on. Run by `make sanitize`, each driver under
// AddressSanitizer and UndefinedBehaviorSanitizer; a driver exits non-zero at its first failed check.
#ifndef PIPCAM_SANITIZE_CHECK_H
#define PIPCAM_SANITIZE_CHECK_H

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(condition, ...)                                                         \
    do {                                                                              \
        if (!(condition)) {                                                           \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                             \
            fputc('\n', stderr);                                                      \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

/// A buffer of `size` zero bytes at `pts` lasting `duration`.
static inline GstBuffer *zeroed_buffer(gsize size, GstClockTime pts, GstClockTime duration) {
    GstBuffer *buffer = gst_buffer_new_and_alloc(size);
    gst_buffer_memset(buffer, 0, 0, size);
    GST_BUFFER_PTS(buffer) = pts;
    GST_BUFFER_DURATION(buffer) = duration;
    return buffer;
}

/// An `identity` in a harness with these caps (and a time segment from zero) on its input.
static inline GstHarness *identity_harness(const gchar *caps) {
    GstHarness *harness = gst_harness_new("identity");
    gst_harness_set_src_caps_str(harness, caps);
    return harness;
}

/// The element's sink pad: where pipcam's probes see what comes in.
static inline GstPad *harness_input(GstHarness *harness) {
    return gst_element_get_static_pad(harness->element, "sink");
}

#endif
