import Foundation

/// Single keys typed in the terminal while previewing or recording, without Enter and without echo.
/// Only when standard input is a terminal; Ctrl-C still stops as before (signals stay on).
final class TerminalKeys: @unchecked Sendable {
    private var saved = termios()
    private let isActive: Bool

    init(_ body: @escaping @Sendable (String) -> Void) {
        isActive = isatty(STDIN_FILENO) != 0 && tcgetattr(STDIN_FILENO, &saved) == 0
        guard isActive else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        let thread = Thread {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                body(String(UnicodeScalar(byte)))
            }
        }
        thread.name = "terminal keys"
        thread.start()
    }

    /// Gives the terminal back as it was.
    func finish() {
        guard isActive else { return }
        var saved = self.saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
