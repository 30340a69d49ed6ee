import Foundation
import PipcamTestSupport
import XCTest

/// `make install` and `make uninstall`, as the README has a person run them: `PREFIX=$HOME/.local`, then
/// `pipcam`, `man pipcam` and bash completion in a clean environment whose PATH has `$HOME/.local/bin`.
/// It installs the debug build `make test` staged before the tests started (`CONFIG=debug`): what is installed
/// and where is the same as from a release build, which would cost a second build of everything. Staging
/// here would wait for ever on this run's lock on .build, so `STAGED_ONLY` makes a stale stage an error.
final class InstallTests: XCTestCase {
    static let installed = [
        ".local/bin/pipcam",
        ".local/lib/systemd/system/pipcam-serve@.service",
        ".local/lib/systemd/user/pipcam-serve.service",
        ".local/share/bash-completion/completions/pipcam",
        ".local/share/fish/vendor_completions.d/pipcam.fish",
        ".local/share/man/man1/pipcam.1",
        ".local/share/zsh/site-functions/_pipcam",
    ]

    func testInstallPutsPipcamItsCompletionsAndManPageOnThePathAndUninstallRemovesEveryFile() throws {
        let home = try Paths.scratch("install-home")
        let prefix = "\(home)/.local"
        // What a login shell of this user has: nothing from this test run (MANPATH, XDG_*, G_DEBUG) leaks in.
        let shell = ["env", "-i", "HOME=\(home)", "PATH=\(prefix)/bin:/usr/bin:/bin"]

        let install = try Command.run(["make", "install", "CONFIG=debug", "STAGED_ONLY=1", "PREFIX=\(prefix)"],
                                      directory: Paths.repository)
        XCTAssertEqual(install.status, 0, install.output + install.error)
        XCTAssertEqual(try files(under: home), Self.installed)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/pipcam"))

        // `pipcam --version`: pipcam's version and the GStreamer library it runs on.
        let version = try Command.run(shell + ["pipcam", "--version"])
        XCTAssertEqual(version.status, 0, version.error)
        let gstreamer = try XCTUnwrap(try Command.run(["gst-launch-1.0", "--version"]).output
            .split(separator: "\n").first { $0.hasPrefix("GStreamer 1.") })
        let line = version.output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(line.wholeMatch(of: /pipcam \d+\.\d+\.\d+ \(GStreamer \d+\.\d+\.\d+\)/), line)
        XCTAssertTrue(line.hasSuffix("(\(gstreamer))"), "\(line) names \(gstreamer)")

        // `man pipcam` finds the page beside the PATH's bin directory and renders every subcommand.
        let path = try Command.run(shell + ["man", "-w", "pipcam"])
        XCTAssertEqual(path.status, 0, path.error)
        XCTAssertEqual(path.output.trimmingCharacters(in: .whitespacesAndNewlines), "\(prefix)/share/man/man1/pipcam.1")
        let page = try Command.run(shell + ["MANPAGER=cat", "MANWIDTH=100", "man", "pipcam"])
        XCTAssertEqual(page.status, 0, page.error)
        XCTAssertEqual(page.error, "", "rendered without warnings")
        XCTAssertTrue(page.output.hasPrefix("PIPCAM(1)"), page.output)
        XCTAssertTrue(page.output.contains("Record two cameras and two microphones at once"), page.output)
        for subcommand in ["record", "preview", "photo", "check", "devices", "validate", "describe"] {
            XCTAssertNotNil(page.output.firstMatch(of: try Regex("(?m)^ {5}\(subcommand)\\b")), "\(subcommand) in \(page.output)")
        }

        // `pipcam <TAB>`: bash-completion loads the installed script on demand, as an interactive shell does.
        let completion = try Command.run(shell + ["bash", "-c", """
            source /usr/share/bash-completion/bash_completion || exit 2
            __load_completion pipcam || exit 3
            spec=$(complete -p pipcam) || exit 4
            function=${spec##*-F }; function=${function%% *}
            COMP_WORDS=(pipcam ""); COMP_CWORD=1; COMP_LINE="pipcam "; COMP_POINT=${#COMP_LINE}
            "$function" pipcam "" pipcam
            printf '%s\\n' "${COMPREPLY[@]}"
            """])
        XCTAssertEqual(completion.status, 0, completion.error)
        let offered = Set(completion.output.split(separator: "\n").map(String.init))
        XCTAssertTrue(offered.isSuperset(of: ["record", "preview", "photo", "check", "devices", "validate", "describe"]),
                      "offered: \(offered.sorted())")
        // zsh and fish find theirs by name; each is a script for pipcam.
        let zsh = try String(contentsOfFile: "\(prefix)/share/zsh/site-functions/_pipcam", encoding: .utf8)
        XCTAssertTrue(zsh.hasPrefix("#compdef pipcam\n"), String(zsh.prefix(80)))
        let fish = try String(contentsOfFile: "\(prefix)/share/fish/vendor_completions.d/pipcam.fish", encoding: .utf8)
        XCTAssertTrue(fish.contains("complete -c 'pipcam'"), String(fish.prefix(80)))

        // The units start the pipcam installed here, and systemd finds nothing wrong in them.
        for unit in ["lib/systemd/user/pipcam-serve.service", "lib/systemd/system/pipcam-serve@.service"] {
            let text = try String(contentsOfFile: "\(prefix)/\(unit)", encoding: .utf8)
            XCTAssertTrue(text.contains("\nExecStart=\(prefix)/bin/pipcam serve "), unit)
            XCTAssertTrue(text.contains("\nKillSignal=SIGTERM\n"), "SIGTERM finishes the recording: \(unit)")
        }
        let verify = try Command.run(["systemd-analyze", "verify", "--man=no", "\(prefix)/lib/systemd/user/pipcam-serve.service"])
        XCTAssertEqual(verify.status, 0, verify.output + verify.error)
        XCTAssertEqual(verify.error.split(separator: "\n").filter { $0.contains("pipcam-serve") }, [], verify.error)

        let uninstall = try Command.run(["make", "uninstall", "CONFIG=debug", "PREFIX=\(prefix)"], directory: Paths.repository)
        XCTAssertEqual(uninstall.status, 0, uninstall.output + uninstall.error)
        XCTAssertEqual(try files(under: home), [], "uninstall leaves no file behind")
    }

    /// Every file (not folder) under `folder`, relative to it, sorted.
    private func files(under folder: String) throws -> [String] {
        let manager = FileManager.default
        let all = try manager.subpathsOfDirectory(atPath: folder)
        return all.filter { path in
            var isFolder: ObjCBool = false
            return !(manager.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isFolder) && isFolder.boolValue)
        }.sorted()
    }
}
