@testable import Analytics
@testable import Detection
import EventEngine
import Foundation
import GAEN
import GSL
@testable import HealthBackend
@testable import Simulation
import Testing

@Suite struct ImmuniOTPTests {
    @Test func alphabetAndCheckCharacter() {
        #expect(String(ImmuniOTP.alphabet) == "AEFHIJKLQRSUWXYZ123456789")
        // Worked by hand with the fiscal-code tables: odd positions mapped, even positions plain.
        #expect(ImmuniOTP.checkCharacter("AEFHIJKLQ") == "7")
        #expect(ImmuniOTP.checkCharacter("123456789") == "H")
        #expect(ImmuniOTP.checkCharacter("ZZZZZZZZZ") == "Z")
        #expect(ImmuniOTP.isValid("AEFHIJKLQ7"))
        #expect(!ImmuniOTP.isValid("AEFHIJKLQ8"))
        #expect(!ImmuniOTP.isValid("AEFHIJKLQ"))
        #expect(!ImmuniOTP.isValid("BEFHIJKLQ7"))  // B is not in the alphabet
    }

    @Test func generatedCodesAreValidAndTyposMostlyCaught() {
        let rng = RandomStream(seed: 3, stream: "otp-test")
        var caught = 0, typos = 0
        for _ in 0..<2000 {
            let otp = ImmuniOTP.generate(rng)
            #expect(otp.count == 10 && otp.allSatisfy { ImmuniOTP.alphabet.contains($0) } && ImmuniOTP.isValid(otp))
            var chars = Array(otp)
            let at = rng.uniformInt(9)
            chars[at] = ImmuniOTP.alphabet[(ImmuniOTP.alphabet.firstIndex(of: chars[at])! + 1 + rng.uniformInt(24)) % 25]
            typos += 1
            if !ImmuniOTP.isValid(String(chars)) { caught += 1 }
        }
        // A single substitution changes the sum unless the two values collide modulo 25 (e.g. E and 4 in odd positions).
        #expect(Double(caught) / Double(typos) > 0.9)
    }

    @Test func bearerIsHexSHA256() {
        #expect(ImmuniOTP.bearerToken("AEFHIJKLQ8") == "1868fd874612baff880b91d2ea19d29622b2c9f8b23e838910fbc613638fc59c")
    }

    @Test func expiresAt150SecondsAndIsSingleUse() {
        var service = OTPService()
        #expect(service.validity == 150)
        service.authorise(otp: "AEFHIJKLQ7", symptomsStartedOn: nil, at: 1000)
        let bearer = ImmuniOTP.bearerToken("AEFHIJKLQ7")
        #expect(service.check(bearer: bearer, at: 1149) == .valid)
        #expect(service.check(bearer: bearer, at: 1150) == .expired)
        service.authorise(otp: "AEFHIJKLQ7", symptomsStartedOn: nil, at: 2000)
        #expect(service.consume(bearer: bearer, at: 2149) == .valid)
        #expect(service.consume(bearer: bearer, at: 2149) == .unknown)
        #expect(service.check(bearer: ImmuniOTP.bearerToken("123456789H"), at: 2000) == .unknown)
    }
}

@Suite struct CWAVerificationTests {
    @Test func tanIsSingleUseAndNeedsAResult() {
        var server = VerificationServer()
        let token = server.register(guid: 42, resultAt: 500)!
        #expect(server.register(guid: 42, resultAt: 500) == nil)  // a QR code works once
        #expect(server.issueTAN(token: token, at: 499) == nil)
        let tan = server.issueTAN(token: token, at: 500)!
        #expect(server.verify(tan: tan) == .valid)
        #expect(server.verify(tan: tan) == .alreadyUsed)
        #expect(server.verify(tan: 987_654) == .unknown)
        // The registration token stays valid for the second upload's TAN.
        let second = server.issueTAN(token: token, at: 90_000)!
        #expect(second != tan && server.verify(tan: second) == .valid)
    }

    @Test func teleTANRegistersOnce() {
        var server = VerificationServer()
        let tele = server.issueTeleTAN()
        let token = server.register(teleTAN: tele, at: 10)!
        #expect(server.register(teleTAN: tele, at: 11) == nil)
        #expect(server.issueTAN(token: token, at: 10) != nil)
    }
}

func submittedKeys(_ n: Int, day: Int64 = 18_535, trl: Int32? = 5, seed: UInt64 = 1) -> [SubmittedKey] {
    let rng = RandomStream(seed: seed, stream: "keys-test")
    return (0..<n).map { i in
        SubmittedKey(keyData: rng.bytes(16), rollingStartIntervalNumber: UInt32((day - Int64(i)) * 144), transmissionRiskLevel: trl)
    }
}

@Suite struct UploadValidationTests {
    let now = SimTime(18_536) * SimDuration.day + 3600

    @Test func keyCapsPerFlavor() {
        let cwa = UploadValidator(flavor: .cwa, maxKeys: BackendParameters().effectiveMaxKeysPerUpload)
        var immuniParameters = BackendParameters()
        immuniParameters.flavor = .immuni
        let immuni = UploadValidator(flavor: .immuni, maxKeys: immuniParameters.effectiveMaxKeysPerUpload)
        #expect(cwa.maxKeys == 14 && immuni.maxKeys == 30)
        #expect(cwa.validate(submittedKeys(14), at: now) == nil)
        #expect(cwa.validate(submittedKeys(15), at: now) == .tooManyKeys)
        #expect(immuni.validate(submittedKeys(30), at: now) == nil)
        #expect(immuni.validate(submittedKeys(31), at: now) == .tooManyKeys)
        #expect(cwa.validate([], at: now) == .noKeys)
    }

    @Test func rejectionReasons() {
        let v = UploadValidator(flavor: .cwa, maxKeys: 14)
        var k = submittedKeys(3)
        k[1].keyData = k[0].keyData
        #expect(v.validate(k, at: now) == .duplicateKey)
        k = submittedKeys(3); k[0].keyData.removeLast()
        #expect(v.validate(k, at: now) == .malformedKey)
        k = submittedKeys(3); k[0].rollingStartIntervalNumber = UInt32(18_540 * 144)
        #expect(v.validate(k, at: now) == .futureKey)
        k = submittedKeys(3); k[1].rollingStartIntervalNumber = k[0].rollingStartIntervalNumber
        #expect(v.validate(k, at: now) == .overlappingKeys)
        k = submittedKeys(3); k[2].rollingStartIntervalNumber += 7
        #expect(v.validate(k, at: now) == .notMidnightAligned)
        #expect(v.validate(submittedKeys(3, trl: 9), at: now) == .invalidRisk)
        #expect(v.validate(submittedKeys(3, trl: nil), at: now) == .invalidRisk)
        let immuni = UploadValidator(flavor: .immuni, maxKeys: 30)
        k = submittedKeys(3); k[1].rollingStartIntervalNumber = k[0].rollingStartIntervalNumber
        #expect(immuni.validate(k, at: now) == .overlappingKeys)
        #expect(immuni.validate(submittedKeys(3, trl: nil), at: now) == nil)
    }
}

@Suite struct KeyPublisherTests {
    let day: Int64 = 18_536  // 2020-10-01
    var midnight: SimTime { day * SimDuration.day }

    func keys(_ n: Int, uploader: Int32 = 7, seed: UInt64 = 1) -> [PublishedKey] {
        submittedKeys(n, day: day - 2, seed: seed).map { PublishedKey(key: $0.diagnosisKey!, uploader: uploader, uploadedAt: 0) }
    }

    @Test func cwaHoldsKeysBackUntil140AndPackagesReadBack() throws {
        let publisher = KeyPublisher(parameters: BackendParameters(), seed: 5)
        #expect(publisher.parameters.minKeysPerPackage == 140 && publisher.parameters.effectiveMaxKeysPerPackage == 600_000)
        let first = keys(100, seed: 1)
        publisher.add(first, now: midnight + 600)
        try publisher.publishHour(hourEnd: midnight + 3600)
        let second = keys(50, seed: 2)
        publisher.add(second, now: midnight + 4000)
        try publisher.publishHour(hourEnd: midnight + 7200)
        let packages = publisher.takeNewPackages()
        #expect(packages.map(\.keys.count) == [0, 150])
        #expect(packages[0].name == "cwa/v1/diagnosis-keys/country/DE/date/2020-10-01/hour/00")
        #expect(publisher.takeNewPackages().isEmpty)
        // The zip parses with the GAEN reader, verifies with the run's public key and holds the uploaded keys.
        let zip = try publisher.builder.archive(keys: packages[1].keys.map(\.key), region: "DE", startTimestamp: UInt64(packages[1].covers.lowerBound),
                                                endTimestamp: UInt64(packages[1].covers.upperBound))
        let export = try ExportReader.read(archive: zip, verifyingWith: publisher.verificationKey)
        #expect(Set(export.keys) == Set((first + second).map(\.key)))
        #expect(export.region == "DE" && export.signatureInfos.first?.verificationKeyID == "262")
        #expect(packages[1].bytes == zip.count)
        let empty = try ExportReader.read(archive: publisher.builder.archive(keys: [], region: "DE", startTimestamp: 0, endTimestamp: 1),
                                          verifyingWith: publisher.verificationKey)
        #expect(empty.keys.isEmpty)
    }

    @Test func deferredArchivesBuiltInParallelEqualTheImmediateOnes() throws {
        var p = BackendParameters()
        p.keepExports = true
        p.minKeysPerPackage = 1
        func publish(defer deferred: Bool, threads: Int) throws -> KeyPublisher {
            let publisher = KeyPublisher(parameters: p, seed: 11)
            publisher.defersArchives = deferred
            for h in 0..<26 {
                if h % 3 == 0 { publisher.add(keys(5 + h, seed: UInt64(h + 1)), now: midnight + Int64(h) * 3600 + 60) }
                try publisher.publishHour(hourEnd: midnight + Int64(h + 1) * 3600)
            }
            if deferred {
                #expect(publisher.published.allSatisfy { $0.bytes == 0 })
                #expect(try publisher.buildArchives(threads: threads) == Array(0..<publisher.published.count))
            }
            return publisher
        }
        let immediate = try publish(defer: false, threads: 1)
        #expect(immediate.published.count == 27)  // 26 hours and the first day's daily package
        for threads in [1, 3] {
            let deferred = try publish(defer: true, threads: threads)
            #expect(deferred.published.map(\.bytes) == immediate.published.map(\.bytes))
            #expect(deferred.exports == immediate.exports)
            #expect(try deferred.buildArchives(threads: threads).isEmpty)
        }
        // Names follow from each package's window.
        #expect(immediate.published[24].name == "cwa/v1/diagnosis-keys/country/DE/date/2020-10-01")
        #expect(immediate.published[25].name == "cwa/v1/diagnosis-keys/country/DE/date/2020-10-02/hour/00")
    }

    @Test func exportsWrittenWhenAskedParseAndVerify() throws {
        var p = BackendParameters()
        p.keepExports = true
        p.minKeysPerPackage = 1
        let publisher = KeyPublisher(parameters: p, seed: 9)
        let uploaded = keys(20)
        publisher.add(uploaded, now: midnight + 10)
        try publisher.publishHour(hourEnd: midnight + 3600)
        let file = try #require(publisher.exports.first)
        #expect(file.path == "exports/cwa/v1/diagnosis-keys/country/DE/date/2020-10-01/hour/00.zip")
        let export = try ExportReader.read(archive: Data(file.bytes), verifyingWith: publisher.verificationKey)
        #expect(export.keys == publisher.published[0].keys.map(\.key))  // shuffled order as published
        #expect(Set(export.keys) == Set(uploaded.map(\.key)))
        #expect(export.startTimestamp == UInt64(midnight) && export.endTimestamp == UInt64(midnight + 3600))
    }

    @Test func expiryPolicyHoldsTodaysKeyUntilTwoHoursAfterMidnight() throws {
        var p = BackendParameters()
        p.minKeysPerPackage = 1
        let publisher = KeyPublisher(parameters: p, seed: 1)
        let today = try TemporaryExposureKey(keyData: Bytes16(word0: 1, word1: 2), rollingStartIntervalNumber: ENIntervalNumber(unixTime: midnight))
        publisher.add([PublishedKey(key: DiagnosisKey(today, transmissionRiskLevel: 5), uploader: 1, uploadedAt: midnight + SimDuration.day + 60)],
                      now: midnight + SimDuration.day + 60)
        let base = midnight + SimDuration.day
        try publisher.publishHour(hourEnd: base + 3600)
        try publisher.publishHour(hourEnd: base + 7200)
        try publisher.publishHour(hourEnd: base + 10_800)
        #expect(publisher.takeNewPackages().map(\.keys.count) == [0, 0, 1])
    }

    @Test func shuffleIsDeterministicWithTheSeed() throws {
        func order(seed: UInt64) throws -> [PublishedKey] {
            var p = BackendParameters()
            p.minKeysPerPackage = 1
            let publisher = KeyPublisher(parameters: p, seed: seed)
            publisher.add(keys(200), now: midnight)
            try publisher.publishHour(hourEnd: midnight + 3600)
            return publisher.published[0].keys
        }
        let a = try order(seed: 1), b = try order(seed: 1), c = try order(seed: 2)
        #expect(a == b)
        #expect(a != c && Set(a.map(\.key)) == Set(c.map(\.key)))
        #expect(a != keys(200))  // not upload order
    }

    @Test func maxKeysPerPackageShiftsTheRest() throws {
        var p = BackendParameters()
        p.maxKeysPerPackage = 150
        let publisher = KeyPublisher(parameters: p, seed: 1)
        publisher.add(keys(200), now: midnight)
        try publisher.publishHour(hourEnd: midnight + 3600)
        try publisher.publishHour(hourEnd: midnight + 7200)
        // 50 left: fewer than 140, so the second hour is empty and they wait.
        #expect(publisher.takeNewPackages().map(\.keys.count) == [150, 0])
        #expect(publisher.pendingKeyCount == 50)
    }

    @Test func immuniChunksOf10000WithIncrementalIndex() throws {
        var p = BackendParameters()
        p.flavor = .immuni
        #expect(p.effectiveMaxKeysPerPackage == 10_000 && p.batchPeriodHours == 24 && p.region == "222")
        let publisher = KeyPublisher(parameters: p, seed: 1)
        publisher.add(submittedKeys(14, day: day - 1).map { PublishedKey(key: $0.diagnosisKey!, uploader: 1, uploadedAt: 0) }, now: midnight)
        let many = (0..<1500).flatMap { i in submittedKeys(14, day: day - 1, seed: UInt64(i + 10)) }
        publisher.add(many.map { PublishedKey(key: $0.diagnosisKey!, uploader: -1, uploadedAt: 0) }, now: midnight)
        try publisher.publishBatch(since: midnight, now: midnight + SimDuration.day)
        let packages = publisher.takeNewPackages()
        #expect(packages.map(\.keys.count) == [10_000, 10_000, 1_014])
        #expect(packages.map(\.name) == ["immuni/v1/keys/1", "immuni/v1/keys/2", "immuni/v1/keys/3"])
        #expect(publisher.chunkIndex! == (1, 3))
        // Sorted by key data inside the file.
        let zip = try publisher.builder.archive(keys: packages[2].keys.map(\.key), region: "222", startTimestamp: 0, endTimestamp: 1)
        let export = try ExportReader.read(archive: zip, verifyingWith: publisher.verificationKey)
        #expect(export.keys.map(\.temporaryExposureKey.keyData) == export.keys.map(\.temporaryExposureKey.keyData).sorted())
        try publisher.publishBatch(since: midnight + SimDuration.day, now: midnight + 2 * SimDuration.day)
        #expect(publisher.takeNewPackages().isEmpty)  // no keys, no chunk
    }

    @Test func retentionDeletesOnDay15NotDay14() throws {
        var p = BackendParameters()
        p.minKeysPerPackage = 0
        let publisher = KeyPublisher(parameters: p, seed: 1)
        try publisher.publishHour(hourEnd: midnight + 3600)
        publisher.applyRetention(now: midnight + 3600 + 14 * SimDuration.day - 1)
        #expect(publisher.available.count == 1)
        publisher.applyRetention(now: midnight + 3600 + 14 * SimDuration.day)
        #expect(publisher.available.isEmpty && publisher.packagesDeleted == 1)
        #expect(publisher.parameters.retentionDays == 14)
    }
}

@Suite struct CaseSeriesTests {
    @Test func parsesAndReportsProblems() throws {
        let s = try CaseSeries.parse("# comment\ndate,cases\n2020-10-01,2000\n2020-10-02,1500\n", path: "x.csv")
        #expect(s.countsByDay[18_536] == 2000)
        #expect(throws: CaseSeries.LoadError.malformed(path: "x.csv", line: 2, reason: "'oops' is not a count")) {
            try CaseSeries.parse("date,cases\n2020-10-01,oops\n", path: "x.csv")
        }
        #expect(throws: CaseSeries.LoadError.unreadable(path: "/nonexistent/c.csv")) { try CaseSeries.load(path: "/nonexistent/c.csv") }
        #expect(throws: CaseSeries.LoadError.missingDay(path: "x.csv", date: "2020-10-03")) {
            try s.checkCovers(start: 18_536 * SimDuration.day, days: 3, path: "x.csv")
        }
    }
}
