import EventEngine
import GSL
import HealthBackend
import World

/// An attacker's device (iOS: a genuine iPhone the attacker controls; Android: genuine or not).
package struct AttackerDevice {
    package var source: RequestSource
    /// DeviceCheck device id (after the phones' ids) or Android device number.
    package var device: Int
    package var region: Int
    /// Province claimed in the uploads (-1: none).
    package var province: Int
    /// Android reinstall attacker: server time of the last configuration fetch.
    package var configServerTime: SimTime = 0
}

/// One scheduled attacker action.
package struct AttackAction {
    package enum Kind { case farmRequest, raceBurst, poll(token: Int64), replayToken(request: Int), replayUpload(upload: Int), reinstallCycle, nonGenuineUpload }
    package var attacker: Int
    package var kind: Kind
}

extension AnalyticsModel {
    package static let pollDelayMs: Int64 = 60_000
    package static let hourMs: Int64 = 3_600_000

    package func scheduleAttacks() {
        let a = parameters.attacks
        func add(_ source: RequestSource, _ count: Int, first: (Int) -> SimTime, kind: AttackAction.Kind) {
            for _ in 0..<count {
                let i = attackers.count
                let s = stream("analytics.attacker", i)
                let region = s.uniformInt(parameters.regionWeights.count)
                attackers.append(AttackerDevice(source: source, device: profiles.count + i, region: region,
                                                province: claimedProvince(region: region, attacker: i), configServerTime: start))
                scheduleAction(AttackAction(attacker: i, kind: kind), atMs: first(i))
            }
        }
        let jitter = { (i: Int) -> SimTime in self.start * 1000 + Int64(self.stream("analytics.attacker", i, step: 1).uniformInt(3_600_000)) }
        add(.iOSTokenFarm, a.iOSTokenFarmDevices, first: jitter, kind: .farmRequest)
        add(.iOSRace, a.iOSRaceDevices, first: { i in self.raceTime(attacker: i, month: YearMonth(containing: self.start)) }, kind: .raceBurst)
        add(.androidReinstall, a.androidReinstallDevices, first: jitter, kind: .reinstallCycle)
        add(.androidNonGenuine, a.androidNonGenuineDevices, first: jitter, kind: .nonGenuineUpload)
    }

    package func scheduleAction(_ action: AttackAction, atMs t: Int64) {
        guard t < end * 1000 else { return }
        let index = attackActionStore.count
        attackActionStore.append(action)
        engine.schedule(.attacker(index: Int32(index)), at: max(t, nowMs))
    }

    /// A random instant of the month (inside the run) for a race burst.
    package func raceTime(attacker: Int, month: YearMonth) -> Int64 {
        let from = max(month.start, start), to = min(month.next.start, end)
        let s = stream("analytics.attacker.race", attacker, step: month.month)
        return from * 1000 + Int64(s.uniform() * Double((to - from) * 1000))
    }

    package func attackerActs(_ index: Int) {
        let action = attackActionStore[index]
        switch action.kind {
        case .replayToken(let request):
            let original = requests[request]
            sendTokenRequest(token: original.token, deviceToken: original.deviceToken, source: .iOSReplay, sender: -1)
            return
        case .replayUpload(let upload):
            var copy = uploads[upload]
            copy.source = .androidReplay
            uploads.append(copy)
            sendAndroidUpload(uploads.count - 1)
            return
        default: break
        }
        let i = action.attacker
        let device = attackers[i]
        let dc = DeviceCheckToken(device: Int32(device.device), genuine: true, issuedMs: nowMs)
        switch action.kind {
        case .farmRequest:
            let token = service.newTokenID()
            sendTokenRequest(token: token, deviceToken: dc, source: device.source, sender: i)
            scheduleAction(AttackAction(attacker: i, kind: .poll(token: token)), atMs: nowMs + Self.pollDelayMs)
            let interval = 30 * SimDuration.day * 1000 / Int64(max(1, parameters.attacks.iOSTokenFarmRequestsPerMonth))
            scheduleAction(AttackAction(attacker: i, kind: .farmRequest), atMs: nowMs + interval)
        case .raceBurst:
            let s = stream("analytics.attacker.burst", i, step: YearMonth(containing: nowSeconds).month)
            for _ in 0..<parameters.attacks.iOSRaceBurst {
                let token = service.newTokenID()
                let at = nowMs + Int64(s.uniform() * Double(parameters.attacks.iOSRaceSpreadMs))
                scheduleAction(AttackAction(attacker: i, kind: .poll(token: token)), atMs: at)
                scheduleAction(AttackAction(attacker: i, kind: .poll(token: token)), atMs: at + Self.pollDelayMs)
            }
            let next = YearMonth(containing: nowSeconds).next
            scheduleAction(AttackAction(attacker: i, kind: .raceBurst), atMs: raceTime(attacker: i, month: next))
        case .poll(let token):
            sendTokenRequest(token: token, deviceToken: dc, source: device.source, sender: i)
        case .replayToken, .replayUpload:
            break
        case .reinstallCycle:
            // An untampered app: the 24-hour rule uses server time, so clock changes do not help.
            if nowSeconds >= attackers[i].configServerTime + parameters.androidQuietAfterInstallSeconds {
                let s = stream("analytics.attacker.reinstall", i, step: Int(nowSeconds / 3600) & 0xff)
                if s.uniform() < parameters.pWithoutExposure {
                    startAndroidUpload(info: attackerInfo(i, os: .android, withExposure: false), genuine: true, source: device.source, sender: i)
                }
                attackers[i].configServerTime = nowSeconds   // reinstall: a fresh first configuration fetch
            }
            scheduleAction(AttackAction(attacker: i, kind: .reinstallCycle), atMs: nowMs + Self.hourMs)
        case .nonGenuineUpload:
            startAndroidUpload(info: attackerInfo(i, os: .android, withExposure: false), genuine: false, source: device.source, sender: i)
            scheduleAction(AttackAction(attacker: i, kind: .nonGenuineUpload), atMs: nowMs + Self.hourMs)
        }
    }

    /// A province of the attacker's region, from its own keyed stream (other draws unchanged).
    package func claimedProvince(region: Int, attacker i: Int) -> Int {
        guard parameters.regionWeights.count == ItalianRegions.all.count else { return -1 }
        let provinces = ItalianProvinces.byRegion[region]
        return provinces[stream("analytics.attacker", i, step: 2).uniformInt(provinces.count)]
    }

    package func attackerInfo(_ i: Int, os: OperatingSystem, withExposure: Bool) -> OperationalInfo {
        OperationalInfo(os: os, region: attackers[i].region, province: attackers[i].province, exposurePermission: true, bluetoothActive: true,
                        notificationPermission: true, exposureNotification: withExposure,
                        lastRiskyExposureDay: withExposure ? SimClock.dayNumber(nowSeconds) : nil)
    }

    /// An authorised token: upload one more than the cap of each kind, to probe it.
    package func attackerLearnsAuthorised(request: Int) {
        let r = requests[request]
        guard r.sender >= 0, r.source == .iOSTokenFarm || r.source == .iOSRace, !attackerUsedTokens.contains(r.token) else { return }
        attackerUsedTokens.insert(r.token)
        for k in 0..<(2 * (parameters.uploadsPerTokenPerKind + 1)) {
            sendIOSUpload(info: attackerInfo(r.sender, os: .iOS, withExposure: k % 2 == 0), token: r.token, source: r.source, sender: r.sender)
        }
    }

    /// Intercepts the first legitimate iOS authorisation requests of each month and replays them.
    package func maybeReplay(request: Int) {
        let m = ledger.monthIndex(nowSeconds)
        guard replayCounts[0][m] < parameters.attacks.iOSReplaysPerMonth else { return }
        replayCounts[0][m] += 1
        scheduleAction(AttackAction(attacker: -1, kind: .replayToken(request: request)), atMs: nowMs + parameters.attacks.iOSReplayDelayMs)
    }

    package func maybeReplayAndroid(upload: Int) {
        let m = ledger.monthIndex(nowSeconds)
        guard replayCounts[1][m] < parameters.attacks.androidReplaysPerMonth else { return }
        replayCounts[1][m] += 1
        let delay = Int64(stream("analytics.attacker.replay", upload).uniform() * Double(parameters.attacks.androidReplayMaxDelayMs))
        scheduleAction(AttackAction(attacker: -1, kind: .replayUpload(upload: upload)), atMs: nowMs + delay)
    }
}
