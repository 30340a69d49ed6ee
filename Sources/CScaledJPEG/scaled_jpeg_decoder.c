// pipcam's JPEG decoder, for MJPEG cameras and clips: libjpeg-turbo's raw planes (no colour conversion, no
// upsampling) written as I420, the compositor's format, with the accurate inverse DCT. 4:2:0 chroma is
// decoded straight into the picture, 4:2:2 averaged into it, other samplings averaged or repeated; 4:1:1
// comes out right, which jpegdec's does not. It can also decode at 1/2, 1/4 or 1/8 of the size through
// libjpeg-turbo's reduced inverse DCTs (`scale`), which costs less than a whole decode but filters each
// 8x8 block alone: the graph decodes whole (JPEGDecoderTests measures why).

#include "scaled_jpeg_decoder.h"

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/video/gstvideodecoder.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <jpeglib.h>

// The sizes of a scaled block: one number in libjpeg's version 6b interface, one each way from version 7.
#if JPEG_LIB_VERSION >= 70
#define PC_BLOCK_ROWS(component) ((component)->DCT_v_scaled_size)
#define PC_BLOCK_COLUMNS(component) ((component)->DCT_h_scaled_size)
#define PC_SMALLEST_BLOCK_ROWS(jpeg) ((jpeg)->min_DCT_v_scaled_size)
#else
#define PC_BLOCK_ROWS(component) ((component)->DCT_scaled_size)
#define PC_BLOCK_COLUMNS(component) ((component)->DCT_scaled_size)
#define PC_SMALLEST_BLOCK_ROWS(jpeg) ((jpeg)->min_DCT_scaled_size)
#endif

/// libjpeg reports a broken picture by calling `error_exit`, which must not return: it jumps back to the
/// picture's decode with the message kept.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
} PcJpegErrors;

typedef struct {
    GstVideoDecoder parent;
    struct jpeg_decompress_struct jpeg;
    PcJpegErrors errors;
    GstVideoCodecState *input;
    /// The size's denominator: 1, 2, 4 or 8. Set from any thread, read once a picture.
    gint scale;
    /// The size the output was last negotiated at (0 before the first picture).
    gint width, height;
    /// Each component's samples as the decoder writes them: whole blocks, so wider and taller than the picture.
    guint8 *planes[3];
    gsize capacity[3];
    /// Where the rows below the picture's last go (a block row reaches past it).
    guint8 *overhang;
    gsize overhang_size;
} PcScaledJpegDecoder;

typedef struct {
    GstVideoDecoderClass parent_class;
} PcScaledJpegDecoderClass;

G_DEFINE_TYPE(PcScaledJpegDecoder, pc_scaled_jpeg_decoder, GST_TYPE_VIDEO_DECODER)

enum { PROP_0, PROP_SCALE };

static GstStaticPadTemplate pc_sink_template = GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS("image/jpeg"));
static GstStaticPadTemplate pc_src_template = GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(GST_VIDEO_CAPS_MAKE("I420")));

static void pc_jpeg_error_exit(j_common_ptr info) {
    PcJpegErrors *errors = (PcJpegErrors *)info->err;
    info->err->format_message(info, errors->message);
    longjmp(errors->escape, 1);
}

/// Warnings (a picture cut short, extra bytes) are not errors: libjpeg shows what it could decode.
static void pc_jpeg_output_message(j_common_ptr info) { (void)info; }

/// The denominators libjpeg-turbo decodes at with its reduced inverse DCTs; any other value goes down to one.
static gint pc_supported_scale(gint scale) {
    return scale >= 8 ? 8 : scale >= 4 ? 4 : scale >= 2 ? 2 : 1;
}

static void pc_scaled_jpeg_decoder_set_property(GObject *object, guint id, const GValue *value, GParamSpec *spec) {
    PcScaledJpegDecoder *self = (PcScaledJpegDecoder *)object;
    if (id == PROP_SCALE) g_atomic_int_set(&self->scale, pc_supported_scale(g_value_get_int(value)));
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
}

static void pc_scaled_jpeg_decoder_get_property(GObject *object, guint id, GValue *value, GParamSpec *spec) {
    PcScaledJpegDecoder *self = (PcScaledJpegDecoder *)object;
    if (id == PROP_SCALE) g_value_set_int(value, g_atomic_int_get(&self->scale));
    else G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, spec);
}

static void pc_scaled_jpeg_decoder_finalize(GObject *object) {
    PcScaledJpegDecoder *self = (PcScaledJpegDecoder *)object;
    jpeg_destroy_decompress(&self->jpeg);
    for (int c = 0; c < 3; c++) g_free(self->planes[c]);
    g_free(self->overhang);
    if (self->input) gst_video_codec_state_unref(self->input);
    G_OBJECT_CLASS(pc_scaled_jpeg_decoder_parent_class)->finalize(object);
}

static gboolean pc_scaled_jpeg_decoder_set_format(GstVideoDecoder *decoder, GstVideoCodecState *state) {
    PcScaledJpegDecoder *self = (PcScaledJpegDecoder *)decoder;
    if (self->input) gst_video_codec_state_unref(self->input);
    self->input = gst_video_codec_state_ref(state);
    self->width = self->height = 0;
    return TRUE;
}

static gboolean pc_scaled_jpeg_decoder_stop(GstVideoDecoder *decoder) {
    PcScaledJpegDecoder *self = (PcScaledJpegDecoder *)decoder;
    g_clear_pointer(&self->input, gst_video_codec_state_unref);
    self->width = self->height = 0;
    return TRUE;
}

/// Sets the output to I420 at `width`×`height`, with JPEG's colours: full range, BT.601, chroma between
/// the luma samples (as jpegdec says them, so a camera reads the same through either decoder).
static gboolean pc_scaled_jpeg_decoder_negotiate(PcScaledJpegDecoder *self, gint width, gint height) {
    GstVideoDecoder *decoder = GST_VIDEO_DECODER(self);
    // Until it succeeds the size is not known: the next picture negotiates again, whatever its size.
    self->width = self->height = 0;
    GstVideoCodecState *output = gst_video_decoder_set_output_state(decoder, GST_VIDEO_FORMAT_I420, width, height, self->input);
    output->info.colorimetry.range = GST_VIDEO_COLOR_RANGE_0_255;
    output->info.colorimetry.matrix = GST_VIDEO_COLOR_MATRIX_BT601;
    output->info.colorimetry.transfer = GST_VIDEO_TRANSFER_UNKNOWN;
    output->info.colorimetry.primaries = GST_VIDEO_COLOR_PRIMARIES_UNKNOWN;
    output->info.chroma_site = GST_VIDEO_CHROMA_SITE_JPEG;
    gst_video_codec_state_unref(output);
    if (!gst_video_decoder_negotiate(decoder)) return FALSE;
    self->width = width;
    self->height = height;
    return TRUE;
}

/// Writes component `source` (`width`×`height` samples, `stride` apart, `fx`, `fy` luma samples to one of
/// its samples each way) as an I420 chroma plane of `out_width`×`out_height`: each output sample is the mean of the
/// samples under its 2×2 luma pixels, which for 4:2:0 is the sample itself.
static void pc_chroma_to_i420(const guint8 *source, gint stride, gint width, gint height, gint fx, gint fy,
                              guint8 *out, gint out_stride, gint out_width, gint out_height) {
    for (gint y = 0; y < out_height; y++) {
        const guint8 *r0 = source + (gsize)MIN(2 * y / fy, height - 1) * stride;
        const guint8 *r1 = source + (gsize)MIN((2 * y + 1) / fy, height - 1) * stride;
        guint8 *row = out + (gsize)y * out_stride;
        for (gint x = 0; x < out_width; x++) {
            gint x0 = MIN(2 * x / fx, width - 1), x1 = MIN((2 * x + 1) / fx, width - 1);
            row[x] = (guint8)((r0[x0] + r0[x1] + r1[x0] + r1[x1] + 2) >> 2);
        }
    }
}

/// Where libjpeg writes one component's rows: straight into the output picture's plane when the layout
/// is the same (luma always, 4:2:0 chroma), else into a plane of the decoder's own to be converted.
/// Rows past `rows` (the last block row's overhang) go to a row that is thrown away.
typedef struct {
    guint8 *data;
    gsize stride;
    gint rows;
} PcPlaneTarget;

/// The decoder's own plane for component `c`: whole blocks wide, every decoded row tall.
static PcPlaneTarget pc_scratch_plane(PcScaledJpegDecoder *self, int c) {
    struct jpeg_decompress_struct *jpeg = &self->jpeg;
    jpeg_component_info *component = &jpeg->comp_info[c];
    gsize stride = GST_ROUND_UP_32(component->width_in_blocks * PC_BLOCK_COLUMNS(component)) + 32;
    gint rows = component->v_samp_factor * PC_BLOCK_ROWS(component) * (gint)jpeg->total_iMCU_rows;
    gsize size = stride * (gsize)rows;
    if (self->capacity[c] < size) {
        g_free(self->planes[c]);
        self->planes[c] = g_malloc(size);
        self->capacity[c] = size;
    }
    return (PcPlaneTarget){self->planes[c], stride, rows};
}

/// Reads the picture's components into `targets`, one iMCU row at a time. libjpeg's own errors jump out.
static void pc_scaled_jpeg_decoder_read(PcScaledJpegDecoder *self, const PcPlaneTarget *targets) {
    struct jpeg_decompress_struct *jpeg = &self->jpeg;
    // At most 4 blocks of at most 8 rows a component in one iMCU row (checked by the caller).
    JSAMPROW rows[3][32];
    JSAMPARRAY planes[3] = {rows[0], rows[1], rows[2]};
    gint rows_per_call[3] = {0, 0, 0};
    gsize widest = 0;
    for (int c = 0; c < jpeg->num_components; c++) {
        jpeg_component_info *component = &jpeg->comp_info[c];
        rows_per_call[c] = component->v_samp_factor * PC_BLOCK_ROWS(component);
        widest = MAX(widest, (gsize)GST_ROUND_UP_32(component->width_in_blocks * PC_BLOCK_COLUMNS(component)) + 32);
    }
    if (self->overhang_size < widest) {
        g_free(self->overhang);
        self->overhang = g_malloc(widest);
        self->overhang_size = widest;
    }
    JDIMENSION lines = (JDIMENSION)(jpeg->max_v_samp_factor * PC_SMALLEST_BLOCK_ROWS(jpeg));
    for (JDIMENSION call = 0; call < jpeg->total_iMCU_rows && jpeg->output_scanline < jpeg->output_height; call++) {
        for (int c = 0; c < jpeg->num_components; c++) {
            for (gint r = 0; r < rows_per_call[c]; r++) {
                gint row = (gint)call * rows_per_call[c] + r;
                rows[c][r] = row < targets[c].rows ? targets[c].data + (gsize)row * targets[c].stride : self->overhang;
            }
        }
        if (jpeg_read_raw_data(jpeg, planes, lines) == 0) break;
    }
}

/// 4:2:2 chroma (whole height) into I420's (half): each output row the mean of two, as libjpeg-turbo's own
/// downsampling would make it.
static void pc_chroma_rows_to_i420(const guint8 *source, gsize stride, gint height, guint8 *out, gint out_stride, gint width, gint out_height) {
    for (gint y = 0; y < out_height; y++) {
        // Rows of the decoder's own plane and of the picture never overlap: said, the loop is vectorized.
        const guint8 *restrict r0 = source + (gsize)MIN(2 * y, height - 1) * stride;
        const guint8 *restrict r1 = source + (gsize)MIN(2 * y + 1, height - 1) * stride;
        guint8 *restrict row = out + (gsize)y * out_stride;
        for (gint x = 0; x < width; x++) row[x] = (guint8)((r0[x] + r1[x] + 1) >> 1);
    }
}

/// Whether libjpeg can hand this picture over as raw planes pipcam writes as I420: grey, or YCbCr whose
/// luma has the finest sampling and whose chroma is a whole 1, 2 or 4 times coarser each way.
static gboolean pc_sampling_is_supported(struct jpeg_decompress_struct *jpeg) {
    if (jpeg->num_components == 1) return TRUE;
    if (jpeg->num_components != 3 || jpeg->jpeg_color_space != JCS_YCbCr) return FALSE;
    if (jpeg->comp_info[0].h_samp_factor != jpeg->max_h_samp_factor || jpeg->comp_info[0].v_samp_factor != jpeg->max_v_samp_factor) return FALSE;
    for (int c = 1; c < 3; c++) {
        gint fx = jpeg->max_h_samp_factor / jpeg->comp_info[c].h_samp_factor, fy = jpeg->max_v_samp_factor / jpeg->comp_info[c].v_samp_factor;
        if (fx * jpeg->comp_info[c].h_samp_factor != jpeg->max_h_samp_factor || fy * jpeg->comp_info[c].v_samp_factor != jpeg->max_v_samp_factor) return FALSE;
        if ((fx != 1 && fx != 2 && fx != 4) || (fy != 1 && fy != 2 && fy != 4)) return FALSE;
    }
    return TRUE;
}

static GstFlowReturn pc_scaled_jpeg_decoder_handle_frame(GstVideoDecoder *decoder, GstVideoCodecFrame *frame) {
    PcScaledJpegDecoder *self = (PcScaledJpegDecoder *)decoder;
    struct jpeg_decompress_struct *jpeg = &self->jpeg;
    GstMapInfo input;
    if (!gst_buffer_map(frame->input_buffer, &input, GST_MAP_READ)) {
        gst_video_decoder_drop_frame(decoder, frame);
        GST_ELEMENT_ERROR(self, RESOURCE, READ, ("Could not read a JPEG picture."), (NULL));
        return GST_FLOW_ERROR;
    }
    volatile gboolean mapped = FALSE;
    GstVideoFrame picture;
    GstFlowReturn result = GST_FLOW_OK;
    if (setjmp(self->errors.escape)) {
        jpeg_abort_decompress(jpeg);
        if (mapped) gst_video_frame_unmap(&picture);
        gst_buffer_unmap(frame->input_buffer, &input);
        gst_video_decoder_drop_frame(decoder, frame);
        GST_VIDEO_DECODER_ERROR(decoder, 1, STREAM, DECODE, ("Could not decode a JPEG picture."), ("%s", self->errors.message), result);
        return result;
    }
    jpeg_mem_src(jpeg, input.data, input.size);
    jpeg_read_header(jpeg, TRUE);
    if (!pc_sampling_is_supported(jpeg)) {
        // Not a damaged picture: every picture of this camera would be dropped, silently. Said, and stopped.
        jpeg_abort_decompress(jpeg);
        gst_buffer_unmap(frame->input_buffer, &input);
        gst_video_decoder_drop_frame(decoder, frame);
        GST_ELEMENT_ERROR(self, STREAM, WRONG_TYPE, ("JPEG pictures in a colour space or sampling pipcam does not decode (RGB, CMYK or an unusual subsampling)."), (NULL));
        return GST_FLOW_NOT_SUPPORTED;
    }
    jpeg->raw_data_out = TRUE;
    jpeg->do_fancy_upsampling = FALSE;
    jpeg->dct_method = JDCT_ISLOW;
    jpeg->out_color_space = jpeg->num_components == 1 ? JCS_GRAYSCALE : JCS_YCbCr;
    jpeg->scale_num = 1;
    jpeg->scale_denom = (unsigned int)g_atomic_int_get(&self->scale);
    jpeg_start_decompress(jpeg);
    gint width = (gint)jpeg->output_width, height = (gint)jpeg->output_height;
    if ((width != self->width || height != self->height) && !pc_scaled_jpeg_decoder_negotiate(self, width, height)) {
        jpeg_abort_decompress(jpeg);
        gst_buffer_unmap(frame->input_buffer, &input);
        gst_video_decoder_drop_frame(decoder, frame);
        return GST_FLOW_NOT_NEGOTIATED;
    }
    result = gst_video_decoder_allocate_output_frame(decoder, frame);
    GstVideoCodecState *output = gst_video_decoder_get_output_state(decoder);
    gboolean ready = result == GST_FLOW_OK && output && gst_video_frame_map(&picture, &output->info, frame->output_buffer, GST_MAP_WRITE);
    if (output) gst_video_codec_state_unref(output);
    // The picture must be the size decoded into it, whatever the base class negotiated meanwhile.
    if (ready && (GST_VIDEO_FRAME_WIDTH(&picture) != width || GST_VIDEO_FRAME_HEIGHT(&picture) != height)) {
        gst_video_frame_unmap(&picture);
        self->width = self->height = 0;
        ready = FALSE;
        result = GST_FLOW_NOT_NEGOTIATED;
    }
    if (!ready) {
        jpeg_abort_decompress(jpeg);
        gst_buffer_unmap(frame->input_buffer, &input);
        gst_video_decoder_drop_frame(decoder, frame);
        return result == GST_FLOW_OK ? GST_FLOW_ERROR : result;
    }
    mapped = TRUE;
    // Luma samples to a chroma sample each way, from the sizes decoded: libjpeg may decode chroma with a
    // larger scaled IDCT than luma rather than upsample it, so the sampling factors alone do not tell.
    gint factors[3][2] = {{1, 1}, {1, 1}, {1, 1}};
    for (int c = 1; c < jpeg->num_components; c++) {
        jpeg_component_info *luma_component = &jpeg->comp_info[0], *component = &jpeg->comp_info[c];
        gint across = luma_component->h_samp_factor * PC_BLOCK_COLUMNS(luma_component), down = luma_component->v_samp_factor * PC_BLOCK_ROWS(luma_component);
        gint per_across = component->h_samp_factor * PC_BLOCK_COLUMNS(component), per_down = component->v_samp_factor * PC_BLOCK_ROWS(component);
        factors[c][0] = across / per_across;
        factors[c][1] = down / per_down;
        gboolean whole = factors[c][0] * per_across == across && factors[c][1] * per_down == down;
        if (!whole || (factors[c][0] != 1 && factors[c][0] != 2 && factors[c][0] != 4) || (factors[c][1] != 1 && factors[c][1] != 2 && factors[c][1] != 4)) {
            g_strlcpy(self->errors.message, "a chroma sampling pipcam cannot write as I420", sizeof self->errors.message);
            longjmp(self->errors.escape, 1);
        }
    }
    for (int c = 0; c < jpeg->num_components; c++) {
        jpeg_component_info *component = &jpeg->comp_info[c];
        if (component->v_samp_factor * PC_BLOCK_ROWS(component) > 32) {
            g_strlcpy(self->errors.message, "more rows to a block row than libjpeg makes", sizeof self->errors.message);
            longjmp(self->errors.escape, 1);
        }
    }
    // Luma, and 4:2:0 chroma, straight into the picture when whole blocks fit its rows.
    PcPlaneTarget targets[3];
    gboolean direct[3] = {FALSE, FALSE, FALSE};
    for (int c = 0; c < jpeg->num_components; c++) {
        jpeg_component_info *component = &jpeg->comp_info[c];
        gint plane = c, stride = GST_VIDEO_FRAME_PLANE_STRIDE(&picture, plane);
        gboolean same_layout = c == 0 || (factors[c][0] == 2 && factors[c][1] == 2);
        direct[c] = same_layout && (gint64)component->width_in_blocks * PC_BLOCK_COLUMNS(component) <= stride;
        targets[c] = direct[c]
            ? (PcPlaneTarget){GST_VIDEO_FRAME_PLANE_DATA(&picture, plane), (gsize)stride, GST_VIDEO_FRAME_COMP_HEIGHT(&picture, plane)}
            : pc_scratch_plane(self, c);
    }
    pc_scaled_jpeg_decoder_read(self, targets);

    if (!direct[0]) {
        guint8 *luma = GST_VIDEO_FRAME_PLANE_DATA(&picture, 0);
        gint luma_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&picture, 0);
        for (gint y = 0; y < height; y++) memcpy(luma + (gsize)y * luma_stride, targets[0].data + (gsize)y * targets[0].stride, (gsize)width);
    }
    gint chroma_width = GST_VIDEO_FRAME_COMP_WIDTH(&picture, 1), chroma_height = GST_VIDEO_FRAME_COMP_HEIGHT(&picture, 1);
    for (int c = 1; c < 3; c++) {
        guint8 *out = GST_VIDEO_FRAME_PLANE_DATA(&picture, c);
        gint out_stride = GST_VIDEO_FRAME_PLANE_STRIDE(&picture, c);
        if (jpeg->num_components == 1) {
            for (gint y = 0; y < chroma_height; y++) memset(out + (gsize)y * out_stride, 128, (gsize)chroma_width);
            continue;
        }
        if (direct[c]) continue;
        jpeg_component_info *component = &jpeg->comp_info[c];
        if (factors[c][0] == 2 && factors[c][1] == 1) {
            pc_chroma_rows_to_i420(targets[c].data, targets[c].stride, (gint)component->downsampled_height, out, out_stride, chroma_width, chroma_height);
        } else {
            pc_chroma_to_i420(targets[c].data, (gint)targets[c].stride, (gint)component->downsampled_width, (gint)component->downsampled_height,
                              factors[c][0], factors[c][1], out, out_stride, chroma_width, chroma_height);
        }
    }
    // Only now: ending the decode frees the picture's own memory, the components' sizes read above among it.
    jpeg_abort_decompress(jpeg);
    gst_video_frame_unmap(&picture);
    gst_buffer_unmap(frame->input_buffer, &input);
    return gst_video_decoder_finish_frame(decoder, frame);
}

static void pc_scaled_jpeg_decoder_init(PcScaledJpegDecoder *self) {
    self->scale = 1;
    self->jpeg.err = jpeg_std_error(&self->errors.manager);
    self->errors.manager.error_exit = pc_jpeg_error_exit;
    self->errors.manager.output_message = pc_jpeg_output_message;
    jpeg_create_decompress(&self->jpeg);
    // Every buffer a camera or a demuxer hands over is one whole picture.
    gst_video_decoder_set_packetized(GST_VIDEO_DECODER(self), TRUE);
    gst_video_decoder_set_use_default_pad_acceptcaps(GST_VIDEO_DECODER(self), TRUE);
    GST_PAD_SET_ACCEPT_TEMPLATE(GST_VIDEO_DECODER_SINK_PAD(self));
}

static void pc_scaled_jpeg_decoder_class_init(PcScaledJpegDecoderClass *klass) {
    GObjectClass *object = G_OBJECT_CLASS(klass);
    GstElementClass *element = GST_ELEMENT_CLASS(klass);
    GstVideoDecoderClass *decoder = GST_VIDEO_DECODER_CLASS(klass);
    object->set_property = pc_scaled_jpeg_decoder_set_property;
    object->get_property = pc_scaled_jpeg_decoder_get_property;
    object->finalize = pc_scaled_jpeg_decoder_finalize;
    g_object_class_install_property(object, PROP_SCALE,
        g_param_spec_int("scale", "Scale", "Decode at 1/scale of the picture's width and height: 1, 2, 4 or 8", 1, 8, 1,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));
    gst_element_class_add_static_pad_template(element, &pc_sink_template);
    gst_element_class_add_static_pad_template(element, &pc_src_template);
    gst_element_class_set_static_metadata(element, "Scaled JPEG decoder", "Codec/Decoder/Image",
                                          "Decodes JPEG pictures at 1/1, 1/2, 1/4 or 1/8 of their size", "pipcam");
    decoder->set_format = pc_scaled_jpeg_decoder_set_format;
    decoder->stop = pc_scaled_jpeg_decoder_stop;
    decoder->handle_frame = pc_scaled_jpeg_decoder_handle_frame;
}

int pc_scaled_jpeg_decoder_register(void) {
    return gst_element_register(NULL, "pipcamjpegdec", GST_RANK_NONE, pc_scaled_jpeg_decoder_get_type());
}
