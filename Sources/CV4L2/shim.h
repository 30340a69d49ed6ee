// The V4L2 calls GStreamer does not expose: the camera_orientation control, which tells whether a
// camera faces the user (front), away (back) or is external; and reading and setting a camera's
// controls (brightness, gain, exposure) while it streams, through a second open of its node.
#ifndef PIPCAM_CV4L2_SHIM_H
#define PIPCAM_CV4L2_SHIM_H

#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

#ifndef V4L2_CID_CAMERA_ORIENTATION
#define V4L2_CID_CAMERA_ORIENTATION (V4L2_CID_CAMERA_CLASS_BASE + 34)
#endif

/// The range of a control: 0 when the camera has it (and it is not disabled), -1 otherwise.
static inline int pc_v4l2_query_control(const char *path, unsigned int id, int *minimum, int *maximum, int *step, int *fallback) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_queryctrl query = { .id = id };
    int result = ioctl(fd, VIDIOC_QUERYCTRL, &query);
    close(fd);
    if (result != 0 || (query.flags & V4L2_CTRL_FLAG_DISABLED)) return -1;
    *minimum = query.minimum; *maximum = query.maximum; *step = query.step; *fallback = query.default_value;
    return 0;
}

/// A control's current value: 0 on success, -1 otherwise.
static inline int pc_v4l2_get_control(const char *path, unsigned int id, int *value) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_control control = { .id = id, .value = 0 };
    int result = ioctl(fd, VIDIOC_G_CTRL, &control);
    close(fd);
    if (result == 0) *value = control.value;
    return result == 0 ? 0 : -1;
}

/// Sets a control: 0 on success, -1 otherwise.
static inline int pc_v4l2_set_control(const char *path, unsigned int id, int value) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_control control = { .id = id, .value = value };
    int result = ioctl(fd, VIDIOC_S_CTRL, &control);
    close(fd);
    return result == 0 ? 0 : -1;
}

/// 1 when the node is a V4L2 device that captures video, 0 when it answers as something else, -1 when it
/// cannot be opened (errno says why).
static inline int pc_v4l2_captures_video(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_capability capability = { 0 };
    int result = ioctl(fd, VIDIOC_QUERYCAP, &capability);
    close(fd);
    if (result != 0) return 0;
    unsigned int caps = (capability.capabilities & V4L2_CAP_DEVICE_CAPS) ? capability.device_caps : capability.capabilities;
    return (caps & (V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_VIDEO_CAPTURE_MPLANE)) ? 1 : 0;
}

/// 1 when another open of the node owns its capture buffers (it streams from the camera), 0 when the
/// camera is free, -1 when the node cannot be opened. Asking for no buffers changes nothing on a free camera.
static inline int pc_v4l2_capture_is_busy(const char *path) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_requestbuffers request = { .count = 0, .type = V4L2_BUF_TYPE_VIDEO_CAPTURE, .memory = V4L2_MEMORY_MMAP };
    int busy = ioctl(fd, VIDIOC_REQBUFS, &request) != 0 && errno == EBUSY;
    close(fd);
    return busy;
}

/// The mode the camera captures in now (another program may be streaming): its pixel format as a
/// fourcc, size and frame rate as a fraction of a second per frame. 0 on success, -1 otherwise.
static inline int pc_v4l2_current_mode(const char *path, unsigned int *fourcc, unsigned int *width, unsigned int *height,
                                       unsigned int *interval_numerator, unsigned int *interval_denominator) {
    int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_format format = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
    struct v4l2_streamparm parm = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
    int result = ioctl(fd, VIDIOC_G_FMT, &format) == 0 && ioctl(fd, VIDIOC_G_PARM, &parm) == 0 ? 0 : -1;
    close(fd);
    if (result != 0) return -1;
    *fourcc = format.fmt.pix.pixelformat; *width = format.fmt.pix.width; *height = format.fmt.pix.height;
    *interval_numerator = parm.parm.capture.timeperframe.numerator;
    *interval_denominator = parm.parm.capture.timeperframe.denominator;
    return 0;
}

/// 0 front, 1 back, 2 external; -1 when the node cannot be opened or lacks the control.
static inline int pc_v4l2_camera_orientation(const char *path) {
    int value = -1;
    return pc_v4l2_get_control(path, V4L2_CID_CAMERA_ORIENTATION, &value) == 0 ? value : -1;
}

#endif
