import Foundation

/// `openssl speed`: the reference rate of AES-128-ECB that RPI derivation is compared with.
public struct OpenSSLSpeed {
    /// An executable name looked up on PATH, or a path.
    public var executable: String

    public init(executable: String) { self.executable = executable }

    /// `openssl speed -elapsed -seconds S -evp aes-128-ecb -bytes N`, converted from 1000s of bytes/s to blocks/s.
    public func aes128ECBBlocksPerSecond(bytesPerCall: Int, seconds: Int) throws -> Double {
        let text = try run(["speed", "-elapsed", "-seconds", String(seconds), "-evp", "aes-128-ecb", "-bytes", String(bytesPerCall)])
        guard let kiloBytesPerSecond = Self.parseSpeedTable(text) else {
            throw BenchmarkError("cannot find the AES-128-ECB row after \"The 'numbers' are in 1000s of bytes per second\" in openssl output:\n\(text)")
        }
        return kiloBytesPerSecond * 1000 / 16
    }

    /// `openssl version`, or "unknown".
    public var version: String {
        ((try? run(["version"])) ?? "unknown").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first rate (in 1000s of bytes per second) of the aes-128-ecb row of `openssl speed`.
    public static func parseSpeedTable(_ text: String) -> Double? {
        let lines = text.split(separator: "\n").map(String.init)
        guard let marker = lines.firstIndex(where: { $0.contains("The 'numbers' are in 1000s of bytes per second") }) else {
            return nil
        }
        for line in lines[marker...] where line.lowercased().hasPrefix("aes-128-ecb") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[1].hasSuffix("k"), let value = Double(fields[1].dropLast()) else { return nil }
            return value
        }
        return nil
    }

    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            throw BenchmarkError("cannot run '\(executable)' (\(error.localizedDescription)); install OpenSSL (apt-get install openssl) or pass --openssl PATH")
        }
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("'\(executable) \(arguments.joined(separator: " "))' exited with status \(process.terminationStatus); is '\(executable)' installed?")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
