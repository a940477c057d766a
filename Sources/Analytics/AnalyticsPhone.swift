import EventEngine
import GSL

/// A phone's analytics state (seed: "Upload triggers", iOS token lifecycle, Android install time).
package struct PhoneState {
    package var installed = false
    /// Month for which the without-exposure window was drawn, and the window's opening (s).
    package var windowMonth: YearMonth?
    package var windowOpens: SimTime = 0
    package var withoutExposureTested = false
    package var withExposureTestedMonth: YearMonth?
    package var lastRiskyDay: Int64?

    // iOS
    /// Current analytics token (-1: none) and whether the service confirmed it.
    package var token: Int64 = -1
    package var tokenConfirmed = false
    /// Last confirmed token and the month of its confirmation (tokens stay valid to the end of the next month).
    package var authorisedToken: Int64 = -1
    package var authorisedMonth: YearMonth?
    /// T_ATN: first detection after it generates a new token.
    package var nextTokenTime: SimTime = 0

    // Android: server time of the first configuration fetch.
    package var firstConfigServerTime: SimTime = 0

    // Ground truth bookkeeping.
    package var lastWorkingDay: Int64 = .min
    package var lastNotifiedMonth: YearMonth?
}

extension AnalyticsModel {
    /// Scratch stream for a (name, entity, step) draw, so each draw is keyed by what it is for.
    package func stream(_ name: String, _ index: Int, step: Int = 0) -> RandomStream {
        auxStream.reseed(StreamKey(seed: seed, stream: name, index: UInt64(index) << 8 | UInt64(step)))
        return auxStream
    }

    /// T_AT + dT_AT: 00:00 UTC of next month's 1st plus U[0, (n_days − 1)·86400] s.
    package static func nextTokenTime(after t: SimTime, _ stream: RandomStream) -> SimTime {
        let next = YearMonth(containing: t).next
        return next.start + Int64(stream.uniform() * Double(Int64(next.numberOfDays - 1) * SimDuration.day))
    }

    package func phoneInstalled(_ phone: Int) {
        guard !phones[phone].installed else { return }
        phones[phone].installed = true
        switch profiles[phone].os {
        case .iOS:
            phones[phone].nextTokenTime = Self.nextTokenTime(after: nowSeconds, phoneStreams[phone])
            newToken(phone)
            sendTokenRequest(phone)
        case .android:
            phones[phone].firstConfigServerTime = nowSeconds
        }
    }

    package func newToken(_ phone: Int) {
        phones[phone].token = service.newTokenID()
        phones[phone].tokenConfirmed = false
    }

    package func phoneDetected(_ phone: Int, riskyDay: Int64?, bluetoothOn: Bool) {
        if !phones[phone].installed { phoneInstalled(phone) }
        let profile = profiles[phone]
        let t = nowSeconds
        let month = YearMonth(containing: t)
        ledger.recordDetection(phone: phone, region: profile.region, province: profile.province, at: t, bluetoothOn: bluetoothOn, notified: riskyDay != nil,
                               state: &phones[phone])
        let rng = phoneStreams[phone]

        // The first activation in a month draws dT_OWOE; the window may already be past (mid-month installs).
        if phones[phone].windowMonth != month {
            phones[phone].windowMonth = month
            phones[phone].windowOpens = month.start + Int64(rng.uniform() * Double(Int64(month.numberOfDays - 1) * SimDuration.day))
            phones[phone].withoutExposureTested = false
        }

        if profile.os == .iOS {
            if t >= phones[phone].nextTokenTime {
                phones[phone].nextTokenTime = Self.nextTokenTime(after: t, rng)
                newToken(phone)
                sendTokenRequest(phone)
            } else if !phones[phone].tokenConfirmed {
                sendTokenRequest(phone)
            }
        }

        if let riskyDay {
            phones[phone].lastRiskyDay = riskyDay
            guard phones[phone].withExposureTestedMonth != month else { return }
            phones[phone].withExposureTestedMonth = month
            if rng.uniform() < parameters.pWithExposure { attemptUpload(phone, withExposure: true, bluetoothOn: bluetoothOn) }
        } else {
            let opens = phones[phone].windowOpens
            guard !phones[phone].withoutExposureTested, t >= opens, t < opens + parameters.windowSeconds else { return }
            phones[phone].withoutExposureTested = true
            ledger.recordWindowTest(region: profile.region, province: profile.province, at: t)
            if rng.uniform() < parameters.pWithoutExposure { attemptUpload(phone, withExposure: false, bluetoothOn: bluetoothOn) }
        }
    }

    package func operationalInfo(_ phone: Int, withExposure: Bool, bluetoothOn: Bool) -> OperationalInfo {
        let p = profiles[phone]
        return OperationalInfo(os: p.os, region: p.region, province: p.province, exposurePermission: p.exposurePermission, bluetoothActive: bluetoothOn,
                               notificationPermission: p.notificationPermission, exposureNotification: withExposure,
                               lastRiskyExposureDay: phones[phone].lastRiskyDay)
    }

    package func attemptUpload(_ phone: Int, withExposure: Bool, bluetoothOn: Bool) {
        let info = operationalInfo(phone, withExposure: withExposure, bluetoothOn: bluetoothOn)
        switch profiles[phone].os {
        case .iOS:
            // Uploads go only with the last authorised token, while the phone believes it valid.
            guard phones[phone].authorisedToken >= 0, let m = phones[phone].authorisedMonth,
                  YearMonth(containing: nowSeconds) <= m.next
            else { ledger.skippedNoToken += 1; return }
            sendIOSUpload(info: info, token: phones[phone].authorisedToken, source: .legitimate, sender: phone)
        case .android:
            // No upload within 24 h of the first configuration fetch, by server time.
            guard nowSeconds >= phones[phone].firstConfigServerTime + parameters.androidQuietAfterInstallSeconds
            else { ledger.skippedQuietPeriod += 1; return }
            startAndroidUpload(info: info, genuine: profiles[phone].genuine, source: .legitimate, sender: phone)
        }
    }

    package func sendTokenRequest(_ phone: Int) {
        let dc = DeviceCheckToken(device: Int32(phone), genuine: profiles[phone].genuine, issuedMs: nowMs)
        sendTokenRequest(token: phones[phone].token, deviceToken: dc, source: .legitimate, sender: phone)
    }

    /// The service's answer reaches the sender.
    package func tokenResponseArrived(_ request: Int, authorised: Bool) {
        let r = requests[request]
        guard authorised else { return }
        if r.source == .legitimate {
            let phone = r.sender
            guard phones[phone].token == r.token, !phones[phone].tokenConfirmed else { return }
            phones[phone].tokenConfirmed = true
            phones[phone].authorisedToken = r.token
            phones[phone].authorisedMonth = YearMonth(containing: nowSeconds)
        } else {
            attackerLearnsAuthorised(request: request)
        }
    }
}
