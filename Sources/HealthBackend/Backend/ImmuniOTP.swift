import Crypto
import EventEngine
import Foundation
import GSL

/// Immuni's one-time password: 9 random characters from an alphabet without look-alikes and a
/// check character, so that a mistyped code is usually caught before it reaches the server.
///
/// The check character follows the Italian fiscal-code scheme the Immuni apps use: characters
/// in odd positions (1st, 3rd, …) map through a fixed table, those in even positions to their
/// plain value (digits 0–9, letters A=0 … Z=25); the sum modulo 25 indexes the alphabet.
public enum ImmuniOTP {
    public static let alphabet: [Character] = Array("AEFHIJKLQRSUWXYZ123456789")
    public static let length = 10

    /// Fiscal-code values for characters in odd positions.
    package static let oddValue: [Character: Int] = [
        "0": 1, "1": 0, "2": 5, "3": 7, "4": 9, "5": 13, "6": 15, "7": 17, "8": 19, "9": 21,
        "A": 1, "B": 0, "C": 5, "D": 7, "E": 9, "F": 13, "G": 15, "H": 17, "I": 19, "J": 21, "K": 2, "L": 4, "M": 18,
        "N": 20, "O": 11, "P": 3, "Q": 6, "R": 8, "S": 12, "T": 14, "U": 16, "V": 10, "W": 22, "X": 25, "Y": 24, "Z": 23,
    ]

    package static func evenValue(_ c: Character) -> Int? {
        if let d = c.wholeNumberValue, c.isASCII { return d }
        guard let a = c.asciiValue, a >= 65, a <= 90 else { return nil }
        return Int(a) - 65
    }

    /// The check character for the first nine characters, nil if one is not allowed.
    public static func checkCharacter(_ body: some StringProtocol) -> Character? {
        var sum = 0
        for (i, c) in body.enumerated() {
            guard alphabet.contains(c) else { return nil }
            guard let v = i % 2 == 0 ? oddValue[c] : evenValue(c) else { return nil }
            sum += v
        }
        return alphabet[sum % 25]
    }

    /// Well formed: 10 characters of the alphabet, last one the check character.
    public static func isValid(_ otp: String) -> Bool {
        guard otp.count == length else { return false }
        return checkCharacter(otp.prefix(length - 1)) == otp.last
    }

    /// A new OTP drawn from `rng` (a phone draws it from a secure generator).
    public static func generate(_ rng: RandomStream) -> String {
        var body = ""
        for _ in 0..<(length - 1) { body.append(alphabet[rng.uniformInt(alphabet.count)]) }
        return body + String(checkCharacter(body)!)
    }

    /// `Authorization: Bearer <SHA256(OTP)>`: hex SHA-256 of the OTP.
    public static func bearerToken(_ otp: String) -> String {
        SHA256.hash(data: Data(otp.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

/// The OTP service: the health information system authorises an OTP (`POST /v1/otp` with
/// `symptoms_started_on`); the ingestion service accepts it until it expires and deletes it
/// when the upload uses it.
public struct OTPService {
    public enum Check: Equatable, Sendable { case valid, unknown, expired }

    public let validity: Int64
    /// Bearer token → (expiry, symptoms_started_on as UTC day number).
    private var authorised: [String: (expires: SimTime, symptomsStartedOn: Int64?)] = [:]

    public init(validitySeconds: Int64 = 150) { validity = validitySeconds }

    public mutating func authorise(otp: String, symptomsStartedOn: Int64?, at t: SimTime) {
        authorised[ImmuniOTP.bearerToken(otp)] = (t + validity, symptomsStartedOn)
    }

    /// `POST /v1/ingestion/check-otp`: valid strictly before `authorisation + validity`.
    public mutating func check(bearer: String, at t: SimTime) -> Check {
        guard let entry = authorised[bearer] else { return .unknown }
        if t >= entry.expires {
            authorised[bearer] = nil
            return .expired
        }
        return .valid
    }

    /// The upload's authorisation: valid once; the OTP is deleted on use.
    public mutating func consume(bearer: String, at t: SimTime) -> Check {
        let result = check(bearer: bearer, at: t)
        if result == .valid { authorised[bearer] = nil }
        return result
    }

    /// The `symptoms_started_on` an authorised OTP was given (nil: unknown OTP or none given).
    public func symptomsStartedOn(bearer: String) -> Int64? { authorised[bearer]?.symptomsStartedOn }

    /// Drops expired entries (the real service keeps them in Redis with a TTL).
    public mutating func purge(before t: SimTime) {
        authorised = authorised.filter { $0.value.expires > t }
    }

    public var pendingCount: Int { authorised.count }
}
