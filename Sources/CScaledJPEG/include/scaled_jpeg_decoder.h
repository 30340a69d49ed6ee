#ifndef PIPCAM_SCALED_JPEG_DECODER_H
#define PIPCAM_SCALED_JPEG_DECODER_H

/// Registers `pipcamjpegdec` with GStreamer, for this process only: pipcam's JPEG decoder into I420, whole
/// or (its `scale` property) at 1/2, 1/4 or 1/8 of the picture's size through libjpeg-turbo's reduced
/// inverse DCTs. Returns 0 when GStreamer refused the element.
int pc_scaled_jpeg_decoder_register(void);

#endif
