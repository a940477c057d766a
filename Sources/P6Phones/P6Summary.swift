import Detection
import Distribution
import HealthBackend
import SimulationCore
import World
/// summary.json's `p6` section: P6 phones' disclosures, downloads and detections, scored
/// against the same ground truth as GAEN's.
public struct P6Summary: Equatable, Sendable, Encodable {
    /// Bytes per app phone and day: everything fetched, the disclosure files, and their Tx and Rx parts.
    public struct BytesPerPhoneDay: Equatable, Sendable, Encodable {
        public var total: Double
        public var payload: Double
        public var txPart: Double
        public var rxPart: Double

        package enum CodingKeys: String, CodingKey { case total, payload, txPart = "tx_part", rxPart = "rx_part" }
    }

    /// One region's disclosure stream as fetched: its region first, then its distribution figures.
    public struct RegionDownload: Equatable, Sendable, Encodable {
        public var region: Int
        public var distribution: DistributionSummary

        package enum CodingKeys: String, CodingKey { case region }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(region, forKey: .region)
            try distribution.encode(to: encoder)
        }
    }

    /// The disclosure files' distribution: one stream's figures, or one entry per region's stream.
    public enum Download: Equatable, Sendable, Encodable {
        case single(DistributionSummary)
        case regions([RegionDownload])

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .single(let summary): try c.encode(summary)
            case .regions(let streams): try c.encode(streams)
            }
        }
    }

    /// Regional streams (several regions only).
    public struct Regions: Equatable, Sendable, Encodable {
        public var count: Int
        public var subscription: String
        public var statedRegionsShare: Double
        public var disclosuresInSeveralStreams: Int
        public var streamsPerDisclosure: Double
        public var falseNegativesOtherRegion: Int

        package enum CodingKeys: String, CodingKey {
            case count, subscription, statedRegionsShare = "stated_regions_share"
            case disclosuresInSeveralStreams = "disclosures_in_several_streams", streamsPerDisclosure = "streams_per_disclosure"
            case falseNegativesOtherRegion = "false_negatives_other_region"
        }
    }

    public var sliceSeconds: Int
    public var matchRule: String
    public var rxRecordsPerPhoneDay: Double
    public var rxStoreBytesAtEnd: Int
    public var disclosures: Int
    public var disclosuresPublished: Int
    public var disclosedEpochs: Int
    public var disclosedRxRecords: Int
    public var disclosureBytes: Int
    public var disclosureBytesMax: Int
    public var files: Int
    public var fileBytes: Int
    public var bytesPerPhonePerDay: BytesPerPhoneDay
    public var download: Download
    public var txSingleSliceMatches: Int64
    public var txFullMatches: Int
    public var rxSingleSliceMatches: Int64
    public var rxFullMatches: Int
    public var notified: Int
    public var notifiedFirstByTx: Int
    public var notifiedFirstByRx: Int
    public var truePositives: Int
    public var falsePositives: Int
    public var closeContactsWithApp: Int
    public var falseNegatives: Int
    public var precision: ProportionSummary
    public var recall: ProportionSummary
    public var falsePositivesPer1000Notified: ProportionSummary
    public var latencyHours: LatencyHoursSummary
    public var regions: Regions?
    /// The disclosed Rx traces' form and sampling, when not the raw, complete default.
    public var rxTrace: RxTrace?
    /// Revoked disclosures and the notifications they withdrew, when `p6.revocation.share` > 0.
    public var revocation: Revocation?
    /// Misbehaving phones, when `p6.attacks` has any.
    public var attacks: Attacks?
    /// P6 adverts lost to collisions, when `radio.collisions.enabled`.
    public var collisions: CollisionSummary?

    /// Phones at excessive transmit power: how many, how much louder, and what they did to P6.
    public struct ExcessPower: Encodable, Sendable, Equatable {
        public var phones: Int
        public var db: Double
        /// Published disclosures of loud phones, and the phones first notified by one (of them not close contacts).
        public var disclosures: Int
        public var notified: Int
        public var falsePositives: Int

        enum CodingKeys: String, CodingKey { case phones, db, disclosures, notified, falsePositives = "false_positives" }
    }

    public struct Attacks: Encodable, Sendable, Equatable {
        public var freeloaders: Int
        /// Positive freeloaders' uploads that made no P6 disclosure.
        public var uploadsNotDisclosed: Int
        /// Disclosures without a positive test, when `fake_disclosure_share` > 0.
        public var fakeDisclosures: FakeDisclosures? = nil
        /// Phones transmitting P6 above the app's power, when `excess_power_share` > 0.
        public var excessPower: ExcessPower? = nil
        /// Scaled replay attacks, when `p6.attacks.replay.attacks` > 0.
        public var replay: Replay? = nil

        enum CodingKeys: String, CodingKey {
            case freeloaders, uploadsNotDisclosed = "uploads_not_disclosed", fakeDisclosures = "fake_disclosures", replay
            case excessPower = "excess_power"
        }
    }

    /// Scaled replay: what the relayed codes caused and what revocation by reports withdrew.
    public struct Replay: Encodable, Sendable, Equatable {
        public var attacks: Int
        public var relaysPerAttack: Int
        /// Replay disclosures published before the run's end.
        public var disclosed: Int
        /// Phones with a full match of a replay disclosure.
        public var phonesMatched: Int
        /// Phones notified only by replay disclosures: the false alarms caused.
        public var notifiedOnlyByReplay: Int
        /// Of those, notifications withdrawn after the replay disclosures were revoked.
        public var withdrawn: Int
        /// Hours from such a notification to its withdrawal.
        public var withdrawalDelayHours: LatencyHoursSummary
        /// Phones with a replay match still notified at the end (by a disclosure not revoked), and
        /// of those, phones whose every other match is Rx co-location (a case that heard relayed codes).
        public var matchedStillNotified: Int
        public var matchedStillNotifiedByRxOnly: Int
        /// Replay disclosures revoked, and hours from each disclosure to its revocation list.
        public var revoked: Int
        public var disclosureToRevocationHours: LatencyHoursSummary

        enum CodingKeys: String, CodingKey {
            case attacks, relaysPerAttack = "relays_per_attack", disclosed, phonesMatched = "phones_matched"
            case notifiedOnlyByReplay = "notified_only_by_replay", withdrawn, withdrawalDelayHours = "withdrawal_delay_hours"
            case matchedStillNotified = "matched_still_notified", matchedStillNotifiedByRxOnly = "matched_still_notified_by_rx_only"
            case revoked, disclosureToRevocationHours = "disclosure_to_revocation_hours"
        }
    }

    /// Fake disclosures: what the mitigations stopped and what the published ones caused.
    public struct FakeDisclosures: Encodable, Sendable, Equatable {
        /// Phones that install P6 during the run to disclose once without a positive test.
        public var attackers: Int
        /// Attempts made before the run's end.
        public var attempts: Int
        public var byModifiedClients: Int
        /// The genuine app refused: used for less than the minimum app age.
        public var rejectedByAppAge: Int
        /// Modified clients rejected by attestation.
        public var rejectedByAttestation: Int
        public var published: Int
        /// Published fakes that held no epoch and no Rx record (the epoch-age rule left nothing to disclose).
        public var publishedEmpty: Int
        public var bytes: Int
        /// Phones with a full match of a fake disclosure.
        public var phonesMatched: Int
        /// Phones notified only by fakes (every disclosure they fully matched was fake): the false alarms caused.
        public var notifiedOnlyByFakes: Int
        /// Of those, phones that were close contacts of a real case anyway.
        public var notifiedOnlyByFakesExposed: Int

        enum CodingKeys: String, CodingKey {
            case attackers, attempts, byModifiedClients = "by_modified_clients", rejectedByAppAge = "rejected_by_app_age"
            case rejectedByAttestation = "rejected_by_attestation", published, publishedEmpty = "published_empty", bytes
            case phonesMatched = "phones_matched", notifiedOnlyByFakes = "notified_only_by_fakes"
            case notifiedOnlyByFakesExposed = "notified_only_by_fakes_exposed"
        }
    }

    /// The revocation list published beside the streams and what reading it withdrew.
    public struct Revocation: Encodable, Sendable, Equatable {
        public var revokedDisclosures: Int
        /// Bytes of the revocation list files (16 bytes an ID, 4 a file), each fetched once by every phone.
        public var listBytes: Int
        public var notificationsWithdrawn: Int
        public var withdrawnTrue: Int
        public var withdrawnFalse: Int
        /// Hours from the notification to its withdrawal.
        public var withdrawalDelayHours: LatencyHoursSummary
        public var notifiedAfterRevocation: Int
        public var precisionAfterRevocation: ProportionSummary
        /// Revocation by users' reports, when `p6.revocation.report_share` > 0.
        public var byReports: ByReports? = nil
        /// With `clean_rx_matches`: Rx matches (phone, disclosure) that went with the dropped
        /// receptions of revoked codes, and the notifications withdrawn thanks to them.
        public var rxMatchesCleaned: Int? = nil
        public var withdrawnByCleaning: Int? = nil

        /// Users report the disclosure that notified them; enough reports revoke it.
        public struct ByReports: Encodable, Sendable, Equatable {
            public var reports: Int
            public var threshold: Int
            public var revoked: Int
            /// Revoked disclosures that were real cases' (too many matches for a real case: collateral).
            public var revokedReal: Int

            enum CodingKeys: String, CodingKey { case reports, threshold, revoked, revokedReal = "revoked_real" }
        }

        enum CodingKeys: String, CodingKey {
            case revokedDisclosures = "revoked_disclosures", listBytes = "list_bytes", notificationsWithdrawn = "notifications_withdrawn"
            case withdrawnTrue = "withdrawn_true", withdrawnFalse = "withdrawn_false", withdrawalDelayHours = "withdrawal_delay_hours"
            case notifiedAfterRevocation = "notified_after_revocation", precisionAfterRevocation = "precision_after_revocation"
            case byReports = "by_reports", rxMatchesCleaned = "rx_matches_cleaned", withdrawnByCleaning = "withdrawn_by_cleaning"
        }
    }

    /// What the seed's Rx trace compression and busy-period sub-sampling did.
    public struct RxTrace: Encodable, Sendable, Equatable {
        public var encoding: String
        public var maxRecordsPerSlice: Int
        /// Records recorded in the disclosed periods but left out by the per-slice cap.
        public var recordsWithheld: Int
        /// Whether records received at home are left out, and how many were.
        public var withholdAtHome: Bool
        public var recordsWithheldAtHome: Int
        /// The published disclosures' bytes in raw form, beside `disclosure_bytes` in this form.
        public var disclosureBytesRaw: Int

        enum CodingKeys: String, CodingKey {
            case encoding, maxRecordsPerSlice = "max_records_per_slice", recordsWithheld = "records_withheld"
            case withholdAtHome = "withhold_at_home", recordsWithheldAtHome = "records_withheld_at_home"
            case disclosureBytesRaw = "disclosure_bytes_raw"
        }
    }

    package enum CodingKeys: String, CodingKey {
        case sliceSeconds = "slice_seconds", matchRule = "match_rule", rxRecordsPerPhoneDay = "rx_records_per_phone_day"
        case rxStoreBytesAtEnd = "rx_store_bytes_at_end", disclosures, disclosuresPublished = "disclosures_published"
        case disclosedEpochs = "disclosed_epochs", disclosedRxRecords = "disclosed_rx_records", disclosureBytes = "disclosure_bytes"
        case disclosureBytesMax = "disclosure_bytes_max", files, fileBytes = "file_bytes"
        case bytesPerPhonePerDay = "bytes_per_phone_per_day", download
        case txSingleSliceMatches = "tx_single_slice_matches", txFullMatches = "tx_full_matches"
        case rxSingleSliceMatches = "rx_single_slice_matches", rxFullMatches = "rx_full_matches", notified
        case notifiedFirstByTx = "notified_first_by_tx", notifiedFirstByRx = "notified_first_by_rx"
        case truePositives = "true_positives", falsePositives = "false_positives"
        case closeContactsWithApp = "close_contacts_with_app", falseNegatives = "false_negatives", precision, recall
        case falsePositivesPer1000Notified = "false_positives_per_1000_notified", latencyHours = "latency_hours", regions
        case rxTrace = "rx_trace", revocation, attacks, collisions
    }
}
