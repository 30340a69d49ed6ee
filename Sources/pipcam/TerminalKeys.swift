import Foundation
import Locking

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
        NamedThread.start("pipcam-keys") {
            var byte: UInt8 = 0
            while read(STDIN_FILENO, &byte, 1) == 1 {
                if byte == 0x1B {
                    Self.skipEscapeSequence()
                    continue
                }
                body(String(UnicodeScalar(byte)))
            }
        }
    }

    /// Reads the rest of a key the terminal sends as an escape sequence (an arrow: ESC [ A; F1: ESC O P),
    /// so none of its bytes is taken for a key of its own: `[` is a microphone's gain. A lone Escape is
    /// followed by nothing within a moment.
    private static func skipEscapeSequence() {
        var byte: UInt8 = 0
        func next() -> Bool {
            var waiting = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            return poll(&waiting, 1, 50) == 1 && read(STDIN_FILENO, &byte, 1) == 1
        }
        guard next(), byte == UInt8(ascii: "[") || byte == UInt8(ascii: "O") else { return }
        // Parameters and intermediates, up to the final byte (@ to ~), at most a few.
        for _ in 0..<16 {
            guard next() else { return }
            if (0x40...0x7E).contains(byte) { return }
        }
    }

    /// Gives the terminal back as it was.
    func finish() {
        guard isActive else { return }
        var saved = self.saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
