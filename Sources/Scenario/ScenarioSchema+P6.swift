import Simulation

/// The `p6` block: P6 phones next to GAEN on the same contacts (see docs/model/p6.md).
extension ScenarioSchema {
    static let p6: [Field] = [
        .boolean("enabled", \S.p6.enabled, doc: """
            Run P6 on every app phone beside GAEN and add its results (summary `p6`, p6_comparison.csv). Cases whose GAEN keys \
            were uploaded disclose P6 at the same moment. Phones fetch the disclosure files with the `distribution` block's check \
            schedule, offline days, deferrals, retries and CDN (app phones only, their own random streams).
            """),
        .section("transmit", [
            .share("ios_share", \S.p6.transmit.iosShare,
                   "Share of the day an iPhone advertises iBeacons (P6 or an affiliate app in the foreground; ENSim's round value)."),
            .share("android_share", \S.p6.transmit.androidShare,
                   "Share of the day an Android phone advertises (background advertising; some models cannot)."),
            .number("mean_session_s", \S.p6.transmit.meanSessionSeconds, range: 1...86_400, unit: "seconds",
                    doc: "Mean length of one transmitting session (exponential)."),
        ], doc: "When phones can transmit; reception (monitoring the 8 UUIDs) runs in the background on both OSes."),
        .number("tx_power_reduction_db", \S.p6.txPowerReductionDB, range: 0...40, unit: "dB", doc: """
            How far below GAEN's calibrated power P6 advertises: the seed keeps P6's transmit power very low so that only \
            devices in very close proximity receive its codes (and crowds contend less). 0: GAEN's power.
            """),
        .integer("slice_s", \S.p6.sliceSeconds, range: 1...3_600, unit: "seconds",
                 doc: "Slice length: one 32-bit slice code per slice (seed: about 1 minute)."),
        .integer("rx_retention_days", \S.p6.rxRetentionDays, range: 1...60, unit: "days",
                 doc: "Days of Rx trace a phone keeps (~3 weeks)."),
        .integer("match_threshold", \S.p6.matchThreshold, range: 1...100, unit: "slices",
                 doc: "Matched slices needed within the window for a full match (seed: 3)."),
        .integer("match_window", \S.p6.matchWindow, range: 1...100, unit: "slices",
                 doc: "Consecutive slices of the sliding match window (seed: 5)."),
        .integer("minimum_epoch_age_h", \S.p6.minimumEpochAgeSeconds, range: 0...336, scale: 3_600, unit: "hours",
                 doc: "An epoch is disclosed only once it started at least this long ago (seed: 24 h)."),
        .integer("disclosure_file_s", \S.p6.disclosureFileSeconds, range: 60...86_400, unit: "seconds",
                 doc: "Period of the disclosure files (seed: one file each hour); periods without disclosures make no file."),
        .number("clock_offset_sigma_s", \S.p6.clockOffsetSigmaSeconds, range: 0...60, unit: "seconds",
                doc: "σ of a phone's daily clock error against UTC (seed: synchronised to a second or so)."),
        .section("rx_trace", [
            .choice("encoding", \S.p6.rxTraceEncoding, doc: """
                `raw`: 9 bytes a disclosed Rx record; `compact`: records in time order, each a varint of the seconds since the \
                previous one and its UUID index, then its code, so quiet periods cost nothing (the seed's compression).
                """),
            .integer("max_records_per_slice", \S.p6.rxRecordsPerSlice, range: 0...1_000, unit: "records", doc: """
                Disclose at most this many Rx records per slice, those with the lowest codes (a uniform sample, the seed's \
                sub-sampling in busy periods); 0: all.
                """),
            .boolean("withhold_at_home", \S.p6.withholdAtHome, doc: """
                Leave out the Rx records received at home (the seed's home location known only to the app). ENSim's contacts at \
                home are the household's, so this also stands for the seed's removal of householders' records after they share \
                their Tx state with the discloser, with every householder agreeing.
                """),
        ], doc: "How the Rx trace of a disclosure is kept small and private (seed: compression, sub-sampling, home)."),
        .section("attacks", [
            .share("freeloader_share", \S.p6.attacks.freeloaderShare,
                   "Share of phones that receive but never transmit nor disclose (seed's threat list: receive-only apps)."),
            .share("excess_power_share", \S.p6.attacks.excessPowerShare, """
                Share of phones whose P6 app transmits at the phone's maximum power (seed's threat list: excessively powered \
                transmission), drawn once per phone; their codes are heard better in every contact (summary p6.attacks.excess_power).
                """),
            .number("excess_power_db", \S.p6.attacks.excessPowerDB, range: 0...40, unit: "dB", doc: """
                How much louder those phones' P6 adverts are than the app's own: 16 dB is Android's ADVERTISE_TX_POWER_HIGH \
                (about +1 dBm) against the LOW level GAEN uses (about −15 dBm); custom hardware could add more.
                """),
            .share("fake_disclosure_share", \S.p6.attacks.fakeDisclosureShare, """
                Share of app phones whose user installs P6 at a uniform time of the run and discloses once without a positive test \
                (seed's threat list: fake disclosures); before the install the phone neither sends nor hears P6 codes.
                """),
            .integer("fake_delay_mean_h", \S.p6.attacks.fakeDelayMeanSeconds, range: 0...720, scale: 3_600, unit: "hours",
                     doc: "Mean time from the attacker's install to its fake disclosure (exponential; ENSim's choice)."),
            .share("modified_client_share", \S.p6.attacks.modifiedClientShare, """
                Share of fake disclosers using a modified client: it ignores the app's own rules (minimum app age and epoch age) \
                and discloses at once, but attestation can reject it; the others use the genuine app.
                """),
            .integer("minimum_app_age_h", \S.p6.attacks.minimumAppAgeSeconds, range: 0...720, scale: 3_600, unit: "hours",
                     doc: "The genuine app discloses only once it has been in use this long (seed: 24 h; 0: no limit)."),
            .share("attestation_reject_share", \S.p6.attacks.attestationRejectShare, """
                Share of modified clients' disclosures that app attestation rejects (seed: Approov tokens prove the genuine app); \
                0: no attestation.
                """),
            .section("replay", [
                .integer("attacks", \S.p6.attacks.replayAttacks, range: 0...1_000, unit: "attacks",
                         doc: "Scaled replay attacks in the run (seed's threat list: codes synchronised across many devices); 0: none."),
                .integer("relays", \S.p6.attacks.replayRelays, range: 1...100_000, unit: "devices", doc: """
                    Relay devices per attack, each beside a random app phone: whoever meets that phone hears the attacker's codes.
                    """),
                .integer("days", \S.p6.attacks.replayDays, range: 1...14, unit: "days",
                         doc: "Days of relaying (from a random midnight of the run) before the attacker discloses with the genuine app."),
            ], doc: """
                An attacker's codes re-advertised live by relay devices in other places, then disclosed: everyone near a relay \
                matches. Each attack is drawn from its own stream (attacker, relay hosts, start day).
                """),
        ], doc: "Misbehaving phones from the seed's threat list; each drawn once per phone from its own stream."),
        .section("revocation", [
            .share("share", \S.p6.revokedShare, """
                Share of disclosures revoked later (a positive test found false, an abusive disclosure taken down); 0: none.
                """),
            .integer("delay_h", \S.p6.revocationDelaySeconds, range: 1...720, scale: 3_600, unit: "hours",
                     doc: "Time from a disclosure to its revocation; the list is published at the end of that file period."),
            .share("report_share", \S.p6.reportShare, """
                Share of notified users who report the disclosure that notified them (seed, "Scaled Replay": reports submitted by \
                users that believe they have a match); 0: no reports.
                """),
            .integer("report_delay_h", \S.p6.reportDelayMeanSeconds, range: 0...720, scale: 3_600, unit: "hours",
                     doc: "Mean time from a notification to its report (exponential; ENSim's choice)."),
            .integer("report_threshold", \S.p6.reportThreshold, range: 1...1_000_000, unit: "reports", doc: """
                A disclosure with this many reports is revoked (too many matches to be believable), on the list of the file period \
                of the threshold's report.
                """),
            .boolean("clean_rx_matches", \S.p6.cleansRxMatches, doc: """
                A phone reading the list also drops its receptions of the revoked disclosures' codes (it fetched their Tx traces), \
                and with them the Rx co-location matches they made: a notification from another disclosure is withdrawn when no \
                3-in-5 match is left without those receptions. false (default): only matches of revoked disclosures are withdrawn.
                """),
        ], doc: """
            A list of revoked disclosure IDs published beside the streams (seed, "Revocation": disclosures made in error or \
            maliciously, in an independent database); a phone reads it at each check and withdraws its notification once every \
            disclosure it matched is revoked.
            """),
        .section("regions", [
            .integer("count", \S.p6.regions, range: 1...64, unit: "regions", doc: """
                Disclosure streams, one per region (seed: a stream of disclosures per geographic region). Regions are equal blocks \
                of whole households; the contact model has no geography, so other contacts cross regions as in a well-mixed population.
                """),
            .choice("subscribe", \S.p6.subscription,
                    doc: "`home`: a phone fetches its home region's stream; `all`: every stream (each checked on its own schedule)."),
            .share("stated_regions_share", \S.p6.statedRegionsShare, """
                Share of disclosers who state the regions they visited (the home regions of everyone they met in the disclosed \
                period); their disclosure is published in those streams too.
                """),
        ], doc: "Regional disclosure streams (files per region and period)."),
    ]
}
