// The one V4L2 query GStreamer does not expose: the camera_orientation control, which tells
// whether a camera faces the user (front), away (back) or is external.
#ifndef PIPCAM_CV4L2_SHIM_H
#define PIPCAM_CV4L2_SHIM_H

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/videodev2.h>

#ifndef V4L2_CID_CAMERA_ORIENTATION
#define V4L2_CID_CAMERA_ORIENTATION (V4L2_CID_CAMERA_CLASS_BASE + 34)
#endif

/// 0 front, 1 back, 2 external; -1 when the node cannot be opened or lacks the control.
static inline int pc_v4l2_camera_orientation(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return -1;
    struct v4l2_control control = { .id = V4L2_CID_CAMERA_ORIENTATION, .value = 0 };
    int result = ioctl(fd, VIDIOC_G_CTRL, &control);
    close(fd);
    return result == 0 ? control.value : -1;
}

#endif
