import Capture
import CaptureGraph
import GStreamer
import PipcamTestSupport
import XCTest

/// `scripts/install-deps` must bring every element a recording needs on a machine that never had
/// anything installed by hand. Checking that the elements are present here proves nothing (this
/// machine may have packages installed some other way), so each required element is traced to the
/// Debian package that ships its plugin, and that package must be one install-deps installs or one
/// they depend on (Depends, never Recommends: install-deps uses --no-install-recommends).
final class InstallDepsTests: XCTestCase {
    func testInstallDepsBringsEveryRequiredElement() throws {
        let brought = try Debian.dependencyClosure(of: try installDepsPackages())
        var failures: [String] = []
        for factory in ElementFactory.allCases where factory.isRequired && !factory.isBuiltIn {
            guard let file = Gst.pluginFile(ofElement: factory.rawValue) else {
                failures.append("'\(factory.rawValue)' is not installed here: install-deps does not bring \(factory.package)")
                continue
            }
            let owner = try Debian.package(owning: file)
            if owner != factory.package {
                failures.append("'\(factory.rawValue)' comes from \(owner) (\(file)), not \(factory.package) as ElementFactory says")
            }
            if !brought.contains(owner) {
                failures.append("'\(factory.rawValue)' comes from \(owner), which install-deps neither installs nor depends on")
            }
        }
        XCTAssert(failures.isEmpty, "\n" + failures.joined(separator: "\n"))
    }

    /// pipcam builds against headers and links libraries beyond GStreamer's (libjpeg-turbo, for its scaled
    /// MJPEG decoder): each must come from a package install-deps brings, or a fresh machine fails to build.
    func testInstallDepsBringsWhatPipcamBuildsAgainstAndLinks() throws {
        let brought = try Debian.dependencyClosure(of: try installDepsPackages())
        let linked = try Command.run(["ldd", Paths.pipcam])
        XCTAssertEqual(linked.status, 0, linked.error)
        // "libjpeg.so.62 => /lib/x86_64-linux-gnu/libjpeg.so.62 (0x…)": the machine's own libraries, not Swift's.
        let libraries = linked.output.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.components(separatedBy: "=> ").last?.components(separatedBy: " (").first,
                  path.hasPrefix("/lib/") || path.hasPrefix("/usr/lib/") else { return nil }
            return path
        }
        XCTAssertTrue(libraries.contains { $0.contains("libjpeg") }, "pipcam links libjpeg: \(libraries)")
        var failures: [String] = []
        for file in libraries + ["/usr/include/jpeglib.h", "/usr/include/gstreamer-1.0/gst/video/gstvideodecoder.h"] {
            let owner = try Debian.package(owning: file)
            if !brought.contains(owner) { failures.append("\(file) comes from \(owner), which install-deps neither installs nor depends on") }
        }
        XCTAssert(failures.isEmpty, "\n" + failures.joined(separator: "\n"))
    }

    /// An optional element that is missing is reported with its package: that package must be the true one.
    func testOptionalElementsThatArePresentNameTheirTruePackage() throws {
        for factory in ElementFactory.allCases where !factory.isRequired {
            guard let file = Gst.pluginFile(ofElement: factory.rawValue) else { continue }
            XCTAssertEqual(try Debian.package(owning: file), factory.package, factory.rawValue)
        }
    }

    func testAMissingElementIsOneLineNamingItsPackages() {
        let missing = CaptureError.missingElements([.timeoverlay, .ximagesink, .x264enc])
        XCTAssertEqual(missing.description,
                       "GStreamer elements 'timeoverlay', 'ximagesink', 'x264enc' are not installed: sudo apt-get install gstreamer1.0-x gstreamer1.0-plugins-ugly")
        XCTAssertEqual(ElementFactory.missing(among: [.queue, .compositor, .queue]), [], "installed elements are not missing")
    }

    /// Optional elements are never an error, but a line says what each absent one would add and how to get it.
    func testAnAbsentOptionalElementIsOneLineSayingWhatItNeeds() throws {
        let absent = ElementFactory.allCases.filter { !$0.isRequired && !$0.isInstalled }
        try XCTSkipIf(absent.isEmpty, "every optional element is installed here")
        let notes = ElementFactory.absentOptionalElements
        for factory in absent {
            let note = try XCTUnwrap(notes.first { $0.contains("'\(factory.rawValue)'") }, "\(factory.rawValue) in \(notes)")
            XCTAssertTrue(note.hasPrefix("for ") && note.hasSuffix(" not found)"), note)
            let packageIsHere = ElementFactory.allCases.contains { $0.package == factory.package && $0.isInstalled }
            XCTAssertEqual(note.contains("sudo apt-get install \(factory.package)"), !packageIsHere, note)
        }
        XCTAssertFalse(notes.joined().contains("\n"))
    }

    func testTheClosureFollowsDependsButNotRecommends() throws {
        // gstreamer1.0-plugins-good depends on libgstreamer1.0-0 and only recommends nothing we rely on.
        let closure = try Debian.dependencyClosure(of: ["gstreamer1.0-plugins-good"])
        XCTAssertTrue(closure.contains("libgstreamer1.0-0"))
        XCTAssertTrue(closure.contains("libgstreamer-plugins-base1.0-0"))
        XCTAssertFalse(closure.contains("gstreamer1.0-x"), "nothing in plugins-good depends on the X plugins")
    }

    /// The streaming tests start real servers (`MediaServers`): `install-deps --tests` must bring each
    /// program they run, traced to its package as the elements are above.
    func testInstallDepsTestSetBringsEveryServerTheTestsStart() throws {
        let brought = try Debian.dependencyClosure(of: try installDepsPackages() + installDepsPackages("--list-tests"))
        var failures: [String] = []
        for program in MediaServers.programs {
            guard let file = MediaServers.locate(program) else {
                failures.append("'\(program)' is not installed here: install-deps --tests does not bring it")
                continue
            }
            let owner = try Debian.package(owning: file)
            if !brought.contains(owner) {
                failures.append("'\(program)' comes from \(owner) (\(file)), which install-deps --tests neither installs nor depends on")
            }
        }
        XCTAssert(failures.isEmpty, "\n" + failures.joined(separator: "\n"))
    }

    private func installDepsPackages(_ option: String = "--list") throws -> [String] {
        let result = try Command.run(["\(Paths.repository)/scripts/install-deps", option])
        XCTAssertEqual(result.status, 0, result.error)
        return result.output.split(separator: "\n").map(String.init)
    }
}

/// What dpkg knows of the packages installed on this machine.
enum Debian {
    /// The package that installed a file. On Debian 12 /lib, /bin and /sbin are links into /usr, and dpkg
    /// knows a file only by the path its package ships: the registry may name a plugin under /lib that dpkg
    /// recorded under /usr/lib, and PATH may find under /usr/sbin a program dpkg recorded under /sbin.
    static func package(owning file: String) throws -> String {
        let short = file.hasPrefix("/usr/") ? String(file.dropFirst("/usr".count)) : file
        let paths = ["/lib/", "/bin/", "/sbin/"].contains(where: short.hasPrefix) ? ["/usr" + short, short] : [file]
        for path in paths {
            let result = try Command.run(["dpkg", "-S", path])
            // "gstreamer1.0-x:amd64: /usr/lib/…"; diverted files list several packages, the owner first.
            if result.status == 0, let owner = result.output.split(separator: "\n").first?.components(separatedBy: ": ").first {
                return String(owner.split(separator: ",")[0].split(separator: ":")[0]).trimmingCharacters(in: .whitespaces)
            }
        }
        throw ProbeError("no installed package owns \(file)")
    }

    /// The packages and everything they depend on (Depends and Pre-Depends), as apt installs them on a
    /// fresh machine: of alternatives, the first.
    static func dependencyClosure(of packages: [String]) throws -> Set<String> {
        var seen = Set(packages), frontier = packages
        while !frontier.isEmpty {
            let result = try Command.run(["dpkg-query", "-W", "-f=${Depends}, ${Pre-Depends}\n"] + frontier)
            frontier = []
            for group in result.output.split(whereSeparator: { $0 == "," || $0 == "\n" }) {
                let first = group.split(separator: "|").first.map(String.init) ?? ""
                let name = first.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map { String($0.split(separator: ":")[0]) } ?? ""
                if !name.isEmpty, seen.insert(name).inserted { frontier.append(name) }
            }
        }
        return seen
    }
}
