// pipcam's JPEG decoder (Sources/CScaledJPEG): every clip `make-jpegs` made (each chroma layout, three
// sizes) at each scale, then damaged in the ways a network camera's pictures arrive damaged, each
// followed by the whole picture again, which must come out as before, byte for byte; then one decoder
// through every clip in turn, its sizes and layouts changing. Under AddressSanitizer a read of memory
// the decode has freed stops it (the decoder read the chroma's sizes after ending the decode once).
//
//     jpeg_decoder FOLDER     (FOLDER: the clips, NAME-WIDTHxHEIGHT.jpg)
#include "check.h"
#include "scaled_jpeg_decoder.h"
#include <gst/video/video.h>
#include <string.h>

typedef struct {
    gchar *name;
    guint8 *data;
    gsize size;
    gint width, height;
    GBytes *decoded[9];  // by scale: the whole picture's pictures, the reference for what follows
} Clip;

static GstHarness *decoder(gint scale) {
    GstHarness *harness = gst_harness_new("pipcamjpegdec");
    g_object_set(harness->element, "scale", scale, NULL);
    gst_harness_set_src_caps_str(harness, "image/jpeg,framerate=30/1");
    return harness;
}

static GstBuffer *picture(const guint8 *data, gsize size) {
    return gst_buffer_new_memdup(data, size);
}

/// Everything the decoder has put out since the last call, dropped.
static void drain(GstHarness *harness) {
    for (GstBuffer *out; (out = gst_harness_try_pull(harness));) gst_buffer_unref(out);
}

/// Decodes the whole clip: one picture of the size the scale makes (libjpeg rounds up), in I420.
static GBytes *decode_whole(GstHarness *harness, const Clip *clip, gint scale) {
    CHECK(gst_harness_push(harness, picture(clip->data, clip->size)) == GST_FLOW_OK, "%s at 1/%d decoded", clip->name, scale);
    GstBuffer *out = gst_harness_try_pull(harness);
    CHECK(out != NULL, "%s at 1/%d: a picture", clip->name, scale);
    GstCaps *caps = gst_pad_get_current_caps(harness->sinkpad);
    GstVideoInfo info;
    CHECK(caps && gst_video_info_from_caps(&info, caps), "%s: its caps", clip->name);
    gst_caps_unref(caps);
    gint width = (clip->width + scale - 1) / scale, height = (clip->height + scale - 1) / scale;
    CHECK(GST_VIDEO_INFO_WIDTH(&info) == width && GST_VIDEO_INFO_HEIGHT(&info) == height, "%s at 1/%d: %dx%d, want %dx%d",
          clip->name, scale, GST_VIDEO_INFO_WIDTH(&info), GST_VIDEO_INFO_HEIGHT(&info), width, height);
    CHECK(GST_VIDEO_INFO_FORMAT(&info) == GST_VIDEO_FORMAT_I420, "%s: I420", clip->name);
    CHECK(gst_buffer_get_size(out) >= GST_VIDEO_INFO_SIZE(&info), "%s: a whole picture", clip->name);
    GstMapInfo map;
    CHECK(gst_buffer_map(out, &map, GST_MAP_READ), "mapped");
    GBytes *bytes = g_bytes_new(map.data, GST_VIDEO_INFO_SIZE(&info));
    gst_buffer_unmap(out, &map);
    gst_buffer_unref(out);
    return bytes;
}

/// Where the first marker `code` (0xFFcode) begins, or the size when there is none.
static gsize marker(const Clip *clip, guint8 code) {
    for (gsize i = 0; i + 1 < clip->size; i++)
        if (clip->data[i] == 0xFF && clip->data[i + 1] == code) return i;
    return clip->size;
}

/// The clip damaged one way, as `size` bytes of a copy.
static guint8 *damaged(const Clip *clip, int way, gsize *size) {
    guint8 *copy = g_memdup2(clip->data, clip->size);
    gsize frame = marker(clip, 0xC0), scan = marker(clip, 0xDA);
    *size = clip->size;
    switch (way) {
    case 0: *size = 2; break;                                       // its start of image alone
    case 1: *size = MIN(frame + 5, clip->size); break;              // cut inside its frame header
    case 2: *size = MIN(scan + 14, clip->size); break;              // cut where its picture data begins
    case 3: *size = clip->size / 2; break;                          // half of it
    case 4: *size = clip->size - 2; break;                          // no end of image
    case 5: memcpy(copy, "not a picture", 13); *size = 13; break;   // not a JPEG at all
    case 6: for (gsize i = scan + 20; i < clip->size - 2; i += 97) copy[i] ^= 0xFF; break;  // its data corrupt
    case 7: if (frame + 6 < clip->size) copy[frame + 5] = copy[frame + 6] = 0; break;     // no rows
    case 8:                                                         // twice as wide
        if (frame + 8 < clip->size) {
            guint width = MIN(0xFFFFu, 2u * (guint)(copy[frame + 7] << 8 | copy[frame + 8]));
            copy[frame + 7] = (guint8)(width >> 8);
            copy[frame + 8] = (guint8)width;
        }
        break;
    }
    return copy;
}

#define DAMAGES 9

static void check_clip(Clip *clip) {
    for (gint scale = 1; scale <= 8; scale *= 2) {
        GstHarness *harness = decoder(scale);
        clip->decoded[scale] = decode_whole(harness, clip, scale);
        for (int way = 0; way < DAMAGES; way++) {
            gsize size = 0;
            guint8 *bad = damaged(clip, way, &size);
            GstFlowReturn result = gst_harness_push(harness, picture(bad, size));
            g_free(bad);
            CHECK(result == GST_FLOW_OK, "%s at 1/%d, damaged (%d): %s", clip->name, scale, way, gst_flow_get_name(result));
            drain(harness);
            GBytes *again = decode_whole(harness, clip, scale);
            CHECK(g_bytes_equal(again, clip->decoded[scale]), "%s at 1/%d: after damage (%d), not the same picture", clip->name, scale, way);
            g_bytes_unref(again);
        }
        gst_harness_teardown(harness);
    }
}

static gboolean parse_name(Clip *clip) {
    const gchar *dash = strrchr(clip->name, '-');
    return dash && sscanf(dash + 1, "%dx%d.jpg", &clip->width, &clip->height) == 2;
}

int main(int argc, char **argv) {
    gst_init(&argc, &argv);
    CHECK(argc == 2, "usage: jpeg_decoder FOLDER");
    CHECK(pc_scaled_jpeg_decoder_register(), "registered");
    GDir *folder = g_dir_open(argv[1], 0, NULL);
    CHECK(folder, "%s: no such folder", argv[1]);
    GPtrArray *clips = g_ptr_array_new();
    for (const gchar *name; (name = g_dir_read_name(folder));) {
        if (!g_str_has_suffix(name, ".jpg")) continue;
        Clip *clip = g_new0(Clip, 1);
        clip->name = g_strdup(name);
        gchar *path = g_build_filename(argv[1], name, NULL);
        CHECK(g_file_get_contents(path, (gchar **)&clip->data, &clip->size, NULL), "%s read", path);
        CHECK(parse_name(clip), "%s: NAME-WIDTHxHEIGHT.jpg", name);
        g_free(path);
        g_ptr_array_add(clips, clip);
    }
    g_dir_close(folder);
    CHECK(clips->len >= 10, "%u clips in %s", clips->len, argv[1]);
    for (guint i = 0; i < clips->len; i++) check_clip(g_ptr_array_index(clips, i));

    // One decoder for all of them, twice round: each picture as the clip's own decoder made it.
    GstHarness *harness = decoder(1);
    for (guint round = 0; round < 2; round++) {
        for (guint i = 0; i < clips->len; i++) {
            Clip *clip = g_ptr_array_index(clips, i);
            GBytes *bytes = decode_whole(harness, clip, 1);
            CHECK(g_bytes_equal(bytes, clip->decoded[1]), "%s in turn: not the same picture", clip->name);
            g_bytes_unref(bytes);
        }
    }
    gst_harness_teardown(harness);

    for (guint i = 0; i < clips->len; i++) {
        Clip *clip = g_ptr_array_index(clips, i);
        for (gint scale = 1; scale <= 8; scale *= 2) g_bytes_unref(clip->decoded[scale]);
        g_free(clip->data);
        g_free(clip->name);
        g_free(clip);
    }
    printf("jpeg decoder: ok (%u clips, 4 scales, %d damages each)\n", clips->len, DAMAGES);
    g_ptr_array_free(clips, TRUE);
    gst_deinit();
    return 0;
}
