/// Holds the composed picture back until every camera in it has given its first frame, so a recording
/// never opens with a camera's place black for a picture or more because that camera started a little
/// after the other: the compositor starts with the first frame of either, and two cameras start tens to
/// hundreds of milliseconds apart. Each picture is asked about as it leaves the compositor, with whether
/// every camera has a frame in it (`Pad.hasFrameInLastPicture`): a frame that arrived while the picture
/// was being made is not in it, which a note of frames as they arrive cannot tell (seen in the emulated
/// VM: a first picture black in the main camera's place). A camera that gives nothing for `patience` is
/// not waited for: its place shows black until its frames or its slate come. Pure logic, fed running times.
struct PictureStartGate: Sendable {
    private let patience: Duration
    private var firstPicture: Duration?
    private(set) var isOpen: Bool

    init(cameras: Int, patience: Duration) {
        self.patience = patience
        isOpen = cameras == 0
    }

    /// Whether the picture composed for `time` is kept: every camera has a frame in it, or the first
    /// picture was `patience` ago. Once a picture is kept, every later one is.
    mutating func admits(pictureAt time: Duration, everyCameraShown: Bool) -> Bool {
        if isOpen { return true }
        let first = firstPicture ?? time
        firstPicture = first
        if everyCameraShown || time - first >= patience { isOpen = true }
        return isOpen
    }
}
