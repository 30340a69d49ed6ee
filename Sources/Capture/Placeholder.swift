public enum CaptureModule {}
