#ifndef ENSIM_CLIBCRYPTO_SHIM_H
#define ENSIM_CLIBCRYPTO_SHIM_H

// System OpenSSL libcrypto, used for GAEN's hot paths (batch AES-128-ECB for RPIs, SHA-256 for
// the daily HKDF of both sub-keys):
// swift-crypto has no multi-block ECB, and OpenSSL's EVP path runs AES-NI over many blocks
// with one key schedule.
// Low-level SHA-256 (deprecated in OpenSSL 3 in favour of EVP, still supported): its contexts are
// plain structs that copy by value, which HMAC pad-state reuse needs.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
// Big-number and P-256 arithmetic for deterministic (RFC 6979) export signatures.
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>

#endif
