import EventEngine
import HealthBackend

/// Everything the analytics model counts: ground truth per month and region (and province), accepted uploads,
/// requests per hour, authorisations per device and month, rejections by reason.
package struct AnalyticsLedger {
    package struct MonthRegion {
        /// Phone-days with at least one detection, and those with Bluetooth off (first detection of the day).
        package var workingPhoneDays = 0
        package var bluetoothOffPhoneDays = 0
        /// Phones notified of a risky exposure at least once in the month.
        package var notifiedPhones = 0
        /// Phones that made their without-exposure sampling test (a detection inside their
        /// window): the count the working-apps estimate samples, whatever p_OWOE draws.
        package var windowTests = 0
        /// Accepted uploads: without exposure (and those with Bluetooth off), with exposure; polluted = from attacks.
        package var uploadsWithout = 0
        package var uploadsWithoutBluetoothOff = 0
        package var uploadsWith = 0
        package var uploadsIOS = 0
        package var uploadsAndroid = 0
        package var polluted = 0
    }

    package let start: SimTime
    package let months: [YearMonth]
    package let regions: Int
    package var cells: [MonthRegion]
    /// Same per (month, province of `ItalianProvinces`).
    package var provinceCells: [MonthRegion]
    /// Days of each month inside the run.
    package var daysInRun: [Int]
    /// Analytics Service requests per hour from the start: token requests, uploads, of which from attacks.
    package var tokenRequestsPerHour: [Int]
    package var uploadRequestsPerHour: [Int]
    package var attackRequestsPerHour: [Int]
    package var requestsBySource = [Int](repeating: 0, count: RequestSource.allCases.count)
    package var acceptedBySource = [Int](repeating: 0, count: RequestSource.allCases.count)
    package var acceptedBySourceMonth: [[Int]]
    /// Authorised tokens per (device, month) and per source.
    package var authorisations: [Int64: Int] = [:]
    package var authorisationsBySource = [Int](repeating: 0, count: RequestSource.allCases.count)

    package var skippedNoToken = 0
    package var skippedQuietPeriod = 0
    package var deviceCheckTimeouts = 0
    package var invalidDeviceTokens = 0
    package var rejectedSameMonth = 0
    package var blacklistings = 0
    package var rejectedInvalidToken = 0
    package var rejectedTokenCap = 0
    package var rejectedSaltSeen = 0
    package var rejectedStaleAttestation = 0
    package var rejectedAttestation = 0
    package var attestationFailedAtPhone = 0

    package init(start: SimTime, end: SimTime, regions: Int) {
        self.start = start
        self.regions = regions
        var ms: [YearMonth] = []
        var days: [Int] = []
        var m = YearMonth(containing: start)
        while m.start < end {
            ms.append(m)
            let from = max(m.start, start), to = min(m.next.start, end)
            days.append(Int((to - from) / SimDuration.day))
            m = m.next
        }
        months = ms
        daysInRun = days
        cells = Array(repeating: MonthRegion(), count: ms.count * regions)
        provinceCells = Array(repeating: MonthRegion(), count: ms.count * ItalianProvinces.all.count)
        let hours = Int((end - start) / SimDuration.hour)
        tokenRequestsPerHour = Array(repeating: 0, count: hours)
        uploadRequestsPerHour = tokenRequestsPerHour
        attackRequestsPerHour = tokenRequestsPerHour
        acceptedBySourceMonth = Array(repeating: Array(repeating: 0, count: ms.count), count: RequestSource.allCases.count)
    }

    package func monthIndex(_ t: SimTime) -> Int {
        let m = YearMonth(containing: t), first = months[0]
        return (m.year - first.year) * 12 + (m.month - first.month)
    }

    package subscript(month: Int, region: Int) -> MonthRegion {
        get { cells[month * regions + region] }
        set { cells[month * regions + region] = newValue }
    }

    package subscript(month: Int, province province: Int) -> MonthRegion {
        get { provinceCells[month * ItalianProvinces.all.count + province] }
        set { provinceCells[month * ItalianProvinces.all.count + province] = newValue }
    }

    /// Applies a change to the (month, region) cell and, with a province, to its (month, province) cell.
    private mutating func update(month m: Int, region: Int, province: Int, _ change: (inout MonthRegion) -> Void) {
        change(&self[m, region])
        if province >= 0 { change(&self[m, province: province]) }
    }

    package mutating func recordDetection(phone: Int, region: Int, province: Int, at t: SimTime, bluetoothOn: Bool, notified: Bool,
                                  state: inout PhoneState) {
        let m = monthIndex(t)
        let day = SimClock.dayNumber(t)
        if state.lastWorkingDay != day {
            state.lastWorkingDay = day
            update(month: m, region: region, province: province) { c in
                c.workingPhoneDays += 1
                if !bluetoothOn { c.bluetoothOffPhoneDays += 1 }
            }
        }
        if notified, state.lastNotifiedMonth != months[m] {
            state.lastNotifiedMonth = months[m]
            update(month: m, region: region, province: province) { $0.notifiedPhones += 1 }
        }
    }

    package mutating func recordWindowTest(region: Int, province: Int, at t: SimTime) {
        update(month: monthIndex(t), region: region, province: province) { $0.windowTests += 1 }
    }

    package mutating func countRequest(at t: SimTime, source: RequestSource, token: Bool) {
        requestsBySource[source.rawValue] += 1
        let h = Int((t - start) / SimDuration.hour)
        guard tokenRequestsPerHour.indices.contains(h) else { return }
        if token { tokenRequestsPerHour[h] += 1 } else { uploadRequestsPerHour[h] += 1 }
        if source != .legitimate { attackRequestsPerHour[h] += 1 }
    }

    package mutating func recordUpload(_ info: OperationalInfo, source: RequestSource, at t: SimTime) {
        let m = monthIndex(t)
        acceptedBySource[source.rawValue] += 1
        acceptedBySourceMonth[source.rawValue][m] += 1
        update(month: m, region: info.region, province: info.province) { c in
            if info.exposureNotification {
                c.uploadsWith += 1
            } else {
                c.uploadsWithout += 1
                if !info.bluetoothActive { c.uploadsWithoutBluetoothOff += 1 }
            }
            if info.os == .iOS { c.uploadsIOS += 1 } else { c.uploadsAndroid += 1 }
            if source != .legitimate { c.polluted += 1 }
        }
    }

    package mutating func recordAuthorisation(device: Int, month: YearMonth, source: RequestSource) {
        authorisations[Int64(source.rawValue) << 56 | Int64(device) << 20 | Int64(month.year * 12 + month.month), default: 0] += 1
        authorisationsBySource[source.rawValue] += 1
    }

    /// Largest number of tokens authorised for one device in one month (optionally for one source).
    package func maxAuthorisationsPerDeviceMonth(_ source: RequestSource? = nil) -> Int {
        authorisations.filter { source == nil || $0.key >> 56 == source!.rawValue }.values.max() ?? 0
    }

    /// (device, month) pairs with more than one authorised token.
    package func doubleAuthorisations(_ source: RequestSource? = nil) -> Int {
        authorisations.filter { (source == nil || $0.key >> 56 == source!.rawValue) && $0.value > 1 }.count
    }
}
