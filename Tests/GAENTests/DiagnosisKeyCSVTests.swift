import Testing
import GAEN

@Suite struct DiagnosisKeyCSVTests {
    @Test func columnsInAnyOrderWithOptionalFieldsEmpty() throws {
        let keys = try DiagnosisKeyCSV.parse("""
            rolling_start_interval_number,key_data,rolling_period,transmission_risk_level,report_type,days_since_onset\r
            2642976,ff000000000000000000000000000001,144,3,confirmed_test,-2\r

            2643120,75c734c6dd1a782de7a965da5eb93125,100,,3,\r

            """)
        #expect(keys.count == 2)
        #expect(keys[0].temporaryExposureKey.keyData.hex == "ff000000000000000000000000000001")
        #expect(keys[0].temporaryExposureKey.rollingStartIntervalNumber == ENIntervalNumber(2_642_976))
        #expect(keys[0].transmissionRiskLevel == 3 && keys[0].reportType == .confirmedTest && keys[0].daysSinceOnsetOfSymptoms == -2)
        #expect(keys[1].temporaryExposureKey.rollingPeriod == 100)
        #expect(keys[1].transmissionRiskLevel == nil && keys[1].reportType == .selfReport && keys[1].daysSinceOnsetOfSymptoms == nil)
    }

    /// The same keys whatever the RFC 4180 dressing: a byte-order mark, quoted fields, CRLF or LF.
    @Test func byteOrderMarkAndQuotedFieldsReadLikePlainText() throws {
        let plain = "key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,2642976\n"
        let expected = try DiagnosisKeyCSV.parse(plain)
        for variant in ["\u{FEFF}" + plain, plain.replacingOccurrences(of: "\n", with: "\r\n"),
                        "\"key_data\",\"rolling_start_interval_number\"\r\n\"75c734c6dd1a782de7a965da5eb93125\", 2642976\r\n"] {
            #expect(try DiagnosisKeyCSV.parse(variant) == expected, "\(variant.debugDescription)")
        }
    }

    @Test func rollingPeriodDefaultsToOneDay() throws {
        let keys = try DiagnosisKeyCSV.parse("key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,2642976\n")
        #expect(keys.map(\.temporaryExposureKey.rollingPeriod) == [144])
        #expect(keys[0].reportType == nil && keys[0].transmissionRiskLevel == nil)
    }

    @Test(arguments: [
        ("", 1, "missing header row"),
        ("key_data,colour\n", 1, "unknown column 'colour'"),
        ("key_data\n", 1, "header lacks required column 'rolling_start_interval_number'"),
        ("key_data,rolling_start_interval_number,key_data\n", 1, "duplicate column in header"),
        ("key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,1\n00ff,1\n", 3, "key_data: expected 32 hex digits"),
        ("key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125\n", 2, "expected 2 fields, found 1"),
        ("key_data,rolling_start_interval_number,rolling_period\n75c734c6dd1a782de7a965da5eb93125,1,145\n", 2, "rolling_period: '145' is not in 1…144"),
        ("key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,3000000000\n", 2, "rolling_start_interval_number: '3000000000'"),
        ("key_data,rolling_start_interval_number,report_type\n75c734c6dd1a782de7a965da5eb93125,1,sneezed\n", 2, "report_type: 'sneezed' is not 0…5"),
        ("key_data,rolling_start_interval_number,transmission_risk_level\n75c734c6dd1a782de7a965da5eb93125,1,9\n", 2,
         "transmission_risk_level: '9' is not an integer in 0…8"),
        ("key_data,rolling_start_interval_number,transmission_risk_level\n75c734c6dd1a782de7a965da5eb93125,1,-1\n", 2,
         "transmission_risk_level: '-1' is not an integer in 0…8"),
        ("key_data,rolling_start_interval_number,days_since_onset\n75c734c6dd1a782de7a965da5eb93125,1,1000\n", 2,
         "days_since_onset: '1000' is not an integer in −14…14"),
        ("key_data,rolling_start_interval_number\n75c734c6dd1a782de7a965da5eb93125,1\n\n75C734C6DD1A782DE7A965DA5EB93125,2\n", 4,
         "key_data: duplicate of the key on line 2"),
        // An unterminated quote runs to the end of the file: one field.
        ("key_data,rolling_start_interval_number\n\"75c734c6dd1a782de7a965da5eb93125,1\n", 2, "expected 2 fields, found 1"),
    ])
    func errorsNameTheLineAndTheColumn(text: String, line: Int, message: String) {
        #expect {
            _ = try DiagnosisKeyCSV.parse(text)
        } throws: { error in
            guard let error = error as? DiagnosisKeyCSV.ParseError else { return false }
            return error.line == line && error.message.hasPrefix(message)
        }
    }

    @Test func reportTypeNamesRoundTrip() {
        for type in ReportType.allCases {
            #expect(ReportType(csvName: type.csvName) == type)
            #expect(ReportType(csvName: type.csvName.uppercased()) == type)
            #expect(ReportType(csvName: String(type.rawValue)) == type)
        }
        #expect(ReportType(csvName: "6") == nil)
    }
}
