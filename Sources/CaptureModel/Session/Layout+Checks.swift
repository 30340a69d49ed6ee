/// What a layout must be before anything starts.
extension Layout {
    /// `inputIDs`: the session's inputs, one of which a main camera named must be; `picture`: the size
    /// of the picture the inset must fit in.
    func check(inputIDs: [String], picture: (width: Int, height: Int)) throws {
        if let main = mainInputID, !inputIDs.contains(main) {
            throw CaptureError.invalidConfiguration("layout main '\(main)' is not an input of the session")
        }
        if !SessionLimits.insetSize.contains(insetSize) {
            throw CaptureError.invalidConfiguration("inset size \(insetSize) is outside \(SessionLimits.text(SessionLimits.insetSize)) of the width")
        }
        if !SessionLimits.margin.contains(margin) {
            throw CaptureError.invalidConfiguration("margin \(margin) is outside \(SessionLimits.text(SessionLimits.margin)) of the width")
        }
        if let problem = insetProblem(width: picture.width, height: picture.height) {
            throw CaptureError.invalidConfiguration(problem)
        }
    }
}
