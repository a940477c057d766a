#ifndef ENSIM_CLIBCRYPTO_SHIM_H
#define ENSIM_CLIBCRYPTO_SHIM_H

// System OpenSSL libcrypto, used only for the batch AES-128-ECB hot path of RPI derivation:
// swift-crypto has no multi-block ECB, and OpenSSL's EVP path runs AES-NI over many blocks
// with one key schedule.
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>

#endif
