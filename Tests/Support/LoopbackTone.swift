/// A tone played into one side of an ALSA loopback card in the device VM, heard on the other side's
/// microphone. The player stands for the world outside the machine: it runs at a higher priority than
/// pipcam, and costs the VM next to nothing. Under emulation a GStreamer player computing its sine
/// took a fifth of one of the VM's two processors (measured with two players beside a recording), time
/// the recording then lacked; here one second of the tone is made once and `aplay` plays it over and over
/// (the tones have a whole number of periods in a second, so the loop has no seam).
public enum LoopbackTone {
    /// A script line that starts playing `frequency` Hz into `device` (`hw:Loopback,1,0`) in the background.
    /// The player ends when the card goes away.
    public static func play(_ frequency: Int, into device: String) -> String {
        let second = "/tmp/tone-\(frequency).raw"
        return "[ -s \(second) ] || gst-launch-1.0 -q audiotestsrc num-buffers=100 samplesperbuffer=480 freq=\(frequency) volume=0.5 ! "
            + "audio/x-raw,format=S16LE,rate=48000,channels=2 ! filesink location=\(second); "
            + "nice -n -15 sh -c 'while cat \(second); do :; done | aplay -q -D \(device) -f S16_LE -r 48000 -c 2 -t raw' >/dev/null 2>&1 &"
    }
}
