import EventEngine
import GSL
import SimulationCore

/// `POST /v1/analytics/apple/token`: an analytics token with a DeviceCheck token.
package struct TokenRequest {
    package var token: Int64
    package var deviceToken: DeviceCheckToken
    package var source: RequestSource
    /// Phone index, or attacker index for attacks.
    package var sender: Int
    package var sentMs: Int64
    package var latencyMs: Int64
}

/// One worker of the Analytics Service processing one authorisation request (seed: "Preventing
/// race conditions"): first read, read_time, second read, write bit0 = 1, check_time, third
/// read, then authorise (bit0 back to 0) or blacklist (both bits 1).
package struct AuthorisationWorker {
    package enum Stage { case firstRead, secondRead, firstWrite, thirdRead, authoriseWrite, blacklistWrite, done }
    package var request: Int
    package var stage = Stage.firstRead
    package var steps = 0
}

/// A worker's call to the DeviceCheck server: reaches it after `up` ms, answers after `down` more.
package struct DeviceCheckCall {
    package enum Operation { case read, write(bit0: Bool, bit1: Bool) }
    package var worker: Int
    package var operation: Operation
    package var sentMs: Int64
    package var answer: DeviceCheckServer.Bits?
    package var tokenValid = false
}

/// An Operational Info upload (iOS with a token, Android with salt and attestation).
package struct UploadRequest {
    package var info: OperationalInfo
    package var source: RequestSource
    package var sender: Int
    package var token: Int64 = -1
    package var salt: [UInt8] = []
    package var nonce: [UInt8] = []
    package var attestationMs: Int64 = 0
    package var attestationPassed = false
    package var attestationNonce: [UInt8] = []
}

/// The Analytics Service's stores.
package struct AnalyticsServiceState {
    package struct TokenRecord {
        package var authorisedMonth: YearMonth
        package var withExposure = 0
        package var withoutExposure = 0
    }
    package var nextToken: Int64 = 0
    package var authorised: [Int64: TokenRecord] = [:]
    /// Android salts with the time they were received (ms); forgotten after the replay window.
    package var salts: [[UInt8]: Int64] = [:]
    package var saltOrder: [([UInt8], Int64)] = []
    package var saltHead = 0

    package mutating func newTokenID() -> Int64 {
        defer { nextToken += 1 }
        return nextToken
    }
}

extension AnalyticsModel {
    // MARK: iOS token authorisation

    package func sendTokenRequest(token: Int64, deviceToken: DeviceCheckToken, source: RequestSource, sender: Int) {
        let index = requests.count
        let latency = Self.draw(parameters.clientLatencyMs, stream("analytics.request", index))
        requests.append(TokenRequest(token: token, deviceToken: deviceToken, source: source, sender: sender, sentMs: nowMs, latencyMs: latency))
        ledger.countRequest(at: nowSeconds, source: source, token: true)
        engine.schedule(.tokenRequestArrives(request: Int32(index)), at: nowMs + latency)
        if source == .legitimate { maybeReplay(request: index) }
    }

    /// Steps 1–2: answer whether the token is already authorised; if not, a worker starts.
    package func tokenRequestArrived(_ request: Int) {
        let r = requests[request]
        let known = service.authorised[r.token] != nil
        engine.schedule(.tokenResponseArrives(request: Int32(request), authorised: known), at: nowMs + r.latencyMs)
        guard !known else { return }
        let w = workers.count
        workers.append(AuthorisationWorker(request: request))
        callDeviceCheck(worker: w, .read)
    }

    package func callDeviceCheck(worker: Int, _ op: DeviceCheckCall.Operation) {
        let index = calls.count
        let s = stream("analytics.device_check", index)
        let up = Self.draw(parameters.deviceCheckLatencyMs, s), down = Self.draw(parameters.deviceCheckLatencyMs, s)
        calls.append(DeviceCheckCall(worker: worker, operation: op, sentMs: nowMs))
        engine.schedule(.deviceCheckApplies(call: Int32(index)), at: nowMs + up)
        if up + down <= parameters.deviceCheckTimeoutMs {
            engine.schedule(.deviceCheckAnswers(call: Int32(index)), at: nowMs + up + down)
        } else {
            engine.schedule(.deviceCheckTimesOut(call: Int32(index)), at: nowMs + parameters.deviceCheckTimeoutMs)
        }
    }

    /// The call reaches Apple's server: a read takes a snapshot, a write takes effect, both only with a valid token.
    package func deviceCheckApplies(_ call: Int) {
        let dc = requests[workers[calls[call].worker].request].deviceToken
        let valid = dc.genuine && nowMs - dc.issuedMs <= parameters.deviceCheckTokenLifetimeMs
        calls[call].tokenValid = valid
        guard valid else { return }
        let device = Int(dc.device)
        switch calls[call].operation {
        case .read: calls[call].answer = deviceCheck.bits(of: device)
        case let .write(b0, b1): deviceCheck.set(device: device, bit0: b0, bit1: b1, atMs: nowMs)
        }
    }

    package func deviceCheckTimedOut(_ call: Int) {
        ledger.deviceCheckTimeouts += 1
        workers[calls[call].worker].stage = .done
    }

    package func workerWoke(_ worker: Int) {
        switch workers[worker].stage {
        case .secondRead, .thirdRead: callDeviceCheck(worker: worker, .read)
        default: break
        }
    }

    package func deviceCheckAnswered(_ call: Int) {
        let w = calls[call].worker
        guard calls[call].tokenValid else {   // step 3: not a genuine device (or an expired token): ignore
            workers[w].stage = .done
            ledger.invalidDeviceTokens += 1
            return
        }
        let month = YearMonth(containing: nowSeconds)
        let bits = calls[call].answer
        switch workers[w].stage {
        case .firstRead:
            guard let bits, !bits.isBlacklisted else { workers[w].stage = .done; return }
            if let last = bits.lastUpdate, last >= month {   // step 4: the device already authorised a token this month
                workers[w].stage = .done
                ledger.rejectedSameMonth += 1
                return
            }
            guard bits.isDefault else { return blacklist(w) }
            workers[w].stage = .secondRead
            let drawn = min(parameters.maxReadTimeMs, Int64(stream("analytics.worker", w).uniform() * Double(parameters.maxReadTimeMs + 1)))
            engine.schedule(.workerWakes(worker: Int32(w)), at: nowMs + (readTimeOverride?(w) ?? drawn))
        case .secondRead:
            guard let bits, bits.isDefault else { return blacklist(w) }
            workers[w].stage = .firstWrite
            callDeviceCheck(worker: w, .write(bit0: true, bit1: false))
        case .firstWrite:
            workers[w].stage = .thirdRead
            engine.schedule(.workerWakes(worker: Int32(w)), at: nowMs + parameters.checkTimeMs)
        case .thirdRead:
            guard let bits, bits.isPending else { return blacklist(w) }
            workers[w].stage = .authoriseWrite
            callDeviceCheck(worker: w, .write(bit0: false, bit1: false))
        case .authoriseWrite:
            workers[w].stage = .done
            authorise(worker: w)
        case .blacklistWrite, .done:
            workers[w].stage = .done
        }
    }

    package func blacklist(_ worker: Int) {
        workers[worker].stage = .blacklistWrite
        ledger.blacklistings += 1
        callDeviceCheck(worker: worker, .write(bit0: true, bit1: true))
    }

    /// Step 6: the token is stored as authorised.
    package func authorise(worker: Int) {
        let r = requests[workers[worker].request]
        guard service.authorised[r.token] == nil else { return }
        let month = YearMonth(containing: nowSeconds)
        service.authorised[r.token] = .init(authorisedMonth: month)
        ledger.recordAuthorisation(device: Int(r.deviceToken.device), month: month, source: r.source)
    }

    // MARK: iOS uploads

    package func sendIOSUpload(info: OperationalInfo, token: Int64, source: RequestSource, sender: Int) {
        let index = uploads.count
        uploads.append(UploadRequest(info: info, source: source, sender: sender, token: token))
        ledger.countRequest(at: nowSeconds, source: source, token: false)
        engine.schedule(.uploadArrives(upload: Int32(index)), at: nowMs + Self.draw(parameters.clientLatencyMs, stream("analytics.upload", index)))
    }

    /// Token valid (authorised, not past the end of the month after authorisation), at most 2 + 2 uploads.
    package func acceptIOSUpload(_ u: UploadRequest) -> Bool {
        guard var record = service.authorised[u.token], YearMonth(containing: nowSeconds) <= record.authorisedMonth.next else {
            ledger.rejectedInvalidToken += 1
            return false
        }
        let cap = parameters.uploadsPerTokenPerKind
        if u.info.exposureNotification {
            guard record.withExposure < cap else { ledger.rejectedTokenCap += 1; return false }
            record.withExposure += 1
        } else {
            guard record.withoutExposure < cap else { ledger.rejectedTokenCap += 1; return false }
            record.withoutExposure += 1
        }
        service.authorised[u.token] = record
        return true
    }

    // MARK: Android uploads

    /// Salt, SHA-256 nonce, attestation request; the upload is sent when the attestation returns.
    package func startAndroidUpload(info: OperationalInfo, genuine: Bool, source: RequestSource, sender: Int) {
        let index = uploads.count
        let s = stream("analytics.upload", index)
        let salt = s.bytes(16)
        var u = UploadRequest(info: info, source: source, sender: sender, salt: salt, nonce: info.nonce(salt: salt))
        u.attestationPassed = genuine || s.uniform() >= parameters.nonGenuineFailShare
        uploads.append(u)
        engine.schedule(.attestationReturns(upload: Int32(index)), at: nowMs + Self.draw(parameters.attestationLatencyMs, s))
    }

    /// The attestation (JWS) carries the nonce and Google's timestamp; the app sends salt + attestation + info.
    package func attestationReturned(_ upload: Int) {
        uploads[upload].attestationMs = nowMs
        uploads[upload].attestationNonce = uploads[upload].nonce
        guard uploads[upload].attestationPassed || uploads[upload].source != .legitimate else {
            ledger.attestationFailedAtPhone += 1   // an untampered app uploads only after passing
            return
        }
        sendAndroidUpload(upload)
    }

    package func sendAndroidUpload(_ upload: Int) {
        ledger.countRequest(at: nowSeconds, source: uploads[upload].source, token: false)
        let latency = Self.draw(parameters.clientLatencyMs, stream("analytics.upload", upload, step: 1))
        engine.schedule(.uploadArrives(upload: Int32(upload)), at: nowMs + latency)
        if uploads[upload].source == .legitimate { maybeReplayAndroid(upload: upload) }
    }

    /// Server checks: salt not seen in the last 10 minutes, attestation at most 10 minutes old,
    /// attestation passed and bound to this info and salt.
    package func acceptAndroidUpload(_ u: UploadRequest) -> Bool {
        let window = parameters.replayWindowMs
        while service.saltHead < service.saltOrder.count, service.saltOrder[service.saltHead].1 < nowMs - window {
            let (salt, at) = service.saltOrder[service.saltHead]
            if service.salts[salt] == at { service.salts[salt] = nil }
            service.saltHead += 1
        }
        if service.saltHead > 4096 && service.saltHead * 2 > service.saltOrder.count {
            service.saltOrder.removeFirst(service.saltHead)
            service.saltHead = 0
        }
        if service.salts[u.salt] != nil { ledger.rejectedSaltSeen += 1; return false }
        service.salts[u.salt] = nowMs
        service.saltOrder.append((u.salt, nowMs))
        guard nowMs - u.attestationMs <= window else { ledger.rejectedStaleAttestation += 1; return false }
        guard u.attestationPassed, u.attestationNonce == u.info.nonce(salt: u.salt) else { ledger.rejectedAttestation += 1; return false }
        return true
    }

    package func uploadArrived(_ upload: Int) {
        let u = uploads[upload]
        let accepted = u.info.os == .iOS ? acceptIOSUpload(u) : acceptAndroidUpload(u)
        if accepted { ledger.recordUpload(u.info, source: u.source, at: nowSeconds) }
    }
}
