// sync-signals: the other end of pipcam's "sync" camera and microphone, for tests and benchmarks.
//
//   sync-signals beep ALSA-DEVICE [--late-on-signal MS]
//       Plays the sync microphone's beeps (1 kHz, the first 100 ms of each second of the system's
//       monotonic clock, which pipcam's pipelines run on) into a sound card until stopped: through a
//       loopback card, a recording's real microphone hears them when its sync camera flashes. With
//       --late-on-signal, from SIGUSR1 on it plays them MS milliseconds later (a late microphone), and
//       says "late" once the first of those is on its way to the card.
//   sync-signals measure FILE --audio N [--video N] [--region X,Y,W,H]
//       Prints each flash, its beep and their offset, then one line: pairs, worst offset, picture length.
import Foundation
import GStreamer
import PipcamTestSupport

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("sync-signals: \(message)\n".utf8))
    exit(2)
}

/// The sound card is the pipeline's clock: each sample is played when that clock reads its time plus the
/// pipeline's latency, fixed here, which the beeps are put ahead by (`soundSyncBeeps(heardAfter:)`).
/// Slaved to the system's clock instead, alsasink plays a full buffer late (200 ms by default).
///
/// Where a card first places the sound differs from one start of the program to the next, by up to 20 ms
/// measured in the emulated VM, and stays so while it runs: a late microphone is made by the same running
/// player, so that what it hears late is measured against what it heard on time.
func beep(into device: String, lateOnSignal late: Duration?) async throws {
    let latency = Duration.milliseconds(500)
    let pipeline = try Pipeline(name: "beeps")
    try pipeline.set("latency", UInt64(latency.components.attoseconds / 1_000_000_000))
    let silence = try Element.make("audiotestsrc", properties: ["is-live": true, "wave": "silence"])
    let format = try Element.make("capsfilter", properties: ["caps": try Caps("audio/x-raw,format=S16LE,layout=interleaved,rate=48000,channels=1")])
    let convert = try Element.make("audioconvert")
    // Its buffer within the latency (a buffer longer than the latency leaves no time to fill it, and
    // every sample comes too late to be played), yet long: a card that runs dry (12 times in a minute
    // with a tenth of a second, on the busy VM) moves where its sound is placed. Sound moved later is
    // placed there at once.
    let sink = try Element.make("alsasink", properties: [
        "device": device, "buffer-time": Int64(400_000), "latency-time": Int64(10_000), "discont-wait": UInt64(0),
    ])
    try pipeline.addChain([silence, format, convert, sink])
    try format.staticPad("src").soundSyncBeeps(heardAfter: latency)
    let signals = try late.map { lateOnSignal(try convert.staticPad("src"), by: $0) }
    defer { signals?.cancel() }
    try await pipeline.runToEnd(timeout: .seconds(86_400))
}

/// From SIGUSR1 on, what leaves `pad` is placed `late` later: its beeps are played that much after their
/// second. The signal's source is kept for as long as the beeps play.
func lateOnSignal(_ pad: Pad, by late: Duration) -> DispatchSourceSignal {
    signal(SIGUSR1, SIG_IGN)
    let signals = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: DispatchQueue(label: "sync-signals.late"))
    signals.setEventHandler {
        pad.timeOffset = late
        FileHandle.standardOutput.write(Data("late\n".utf8))
    }
    signals.resume()
    return signals
}

func measure(_ arguments: [String]) throws {
    guard let path = arguments.first else { fail("measure needs a file") }
    var options: [String: String] = [:]
    var rest = arguments.dropFirst()
    while let name = rest.popFirst() {
        guard name.hasPrefix("--"), let value = rest.popFirst() else { fail("'\(name)' needs a value") }
        options[String(name.dropFirst(2))] = value
    }
    guard let audio = options["audio"].flatMap(Int.init) else { fail("measure needs --audio N") }
    let video = options["video"].flatMap(Int.init) ?? 0
    let numbers = (options["region"] ?? "0,0,64,64").split(separator: ",").compactMap { Int($0) }
    guard numbers.count == 4 else { fail("--region is X,Y,W,H") }
    let sync = try SyncOffsets.read(path: path, video: video, region: (numbers[0], numbers[1], numbers[2], numbers[3]), audio: audio)
    for pair in sync.pairs {
        print(String(format: "flash %.4f beep %.4f offset_ms %+.1f", pair.flash, pair.beep, pair.offset * 1000))
    }
    let worst = sync.pairs.isEmpty ? "none" : String(format: "%+.1f", sync.worst * 1000)
    print("pairs \(sync.pairs.count) flashes \(sync.flashes.count) beeps \(sync.beeps.count) worst_ms \(worst) frame_ms "
          + String(format: "%.1f", sync.frameDuration * 1000))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "beep":
        var late: Duration?
        if arguments.count == 4, arguments[2] == "--late-on-signal", let milliseconds = Int(arguments[3]) {
            late = .milliseconds(milliseconds)
        } else if arguments.count != 2 {
            fail("beep needs one ALSA device, and --late-on-signal MS if any")
        }
        try await beep(into: arguments[1], lateOnSignal: late)
    case "measure":
        try measure(Array(arguments.dropFirst()))
    default:
        fail("usage: sync-signals beep DEVICE [--late-on-signal MS] | measure FILE --audio N [--video N] [--region X,Y,W,H]")
    }
} catch {
    fail("\(error)")
}
