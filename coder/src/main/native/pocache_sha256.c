/*
 * Copyright 2026 the POCache for HDFS authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

/*
 * The SHA-256 compression function (FIPS 180-4, section 6.2.2) over whole 64-byte
 * blocks, for org.pocache.coder.Sha256, which does the padding and the framing in
 * Java. Parity values are digested when they are stored and checked when they are
 * read; the JDK's MessageDigest reaches its own intrinsic only after the JIT has
 * compiled it, which a task JVM that writes one file never waits for.
 *
 * On x86-64 processors with the SHA extensions each block takes sixteen groups of
 * four rounds in SHA256RNDS2, with the message schedule in SHA256MSG1/MSG2; elsewhere
 * a plain C version of the same function runs.
 */
#include <jni.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

static const uint32_t K256[64] = {
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress_c(uint32_t h[8], const unsigned char *p, size_t blocks) {
  uint32_t w[64];
  for (; blocks > 0; blocks--, p += 64) {
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    int t;
    for (t = 0; t < 16; t++) {
      w[t] = (uint32_t) p[4 * t] << 24 | (uint32_t) p[4 * t + 1] << 16 | (uint32_t) p[4 * t + 2] << 8
          | (uint32_t) p[4 * t + 3];
    }
    for (t = 16; t < 64; t++) {
      uint32_t s0 = ROTR(w[t - 15], 7) ^ ROTR(w[t - 15], 18) ^ (w[t - 15] >> 3);
      uint32_t s1 = ROTR(w[t - 2], 17) ^ ROTR(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    for (t = 0; t < 64; t++) {
      uint32_t t1 = hh + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K256[t] + w[t];
      uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
}

#if defined(__x86_64__)
/*
 * The SHA extensions keep the state in two registers, ABEF and CDGH (A in the highest
 * dword of the first). SHA256RNDS2 takes CDGH, ABEF and two rounds' W[t] + K[t] in the
 * low half of its third operand and returns the new ABEF; after those two rounds the
 * old ABEF is the new CDGH, so two calls with the operands swapped make four rounds and
 * leave the registers as they began.
 */
__attribute__((target("sha,sse4.1,ssse3")))
static void compress_shani(uint32_t h[8], const unsigned char *p, size_t blocks) {
  const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
  __m128i dcba = _mm_loadu_si128((const __m128i *) &h[0]);  /* dwords A B C D, A lowest */
  __m128i hgfe = _mm_loadu_si128((const __m128i *) &h[4]);  /* E F G H */
  __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);               /* B A D C */
  __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);               /* H G F E */
  __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);              /* F E B A: ABEF */
  __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);           /* H G D C: CDGH */
  for (; blocks > 0; blocks--, p += 64) {
    __m128i m[4];
    __m128i abef0 = abef, cdgh0 = cdgh;
    int g;
    for (g = 0; g < 4; g++) {
      m[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *) (p + 16 * g)), bswap);
    }
    for (g = 0; g < 16; g++) {
      __m128i wk;
      if (g >= 4) {
        /* m[g&3] held W[t-16..t-13]; the next three hold W[t-12..t-9], W[t-8..t-5], W[t-4..t-1] */
        __m128i x = _mm_sha256msg1_epu32(m[g & 3], m[(g + 1) & 3]);
        x = _mm_add_epi32(x, _mm_alignr_epi8(m[(g + 3) & 3], m[(g + 2) & 3], 4));
        m[g & 3] = _mm_sha256msg2_epu32(x, m[(g + 3) & 3]);
      }
      wk = _mm_add_epi32(m[g & 3], _mm_loadu_si128((const __m128i *) &K256[4 * g]));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);  /* now ABEF; abef is the new CDGH */
      wk = _mm_shuffle_epi32(wk, 0x0E);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);  /* ABEF again; cdgh is CDGH again */
    }
    abef = _mm_add_epi32(abef, abef0);
    cdgh = _mm_add_epi32(cdgh, cdgh0);
  }
  {
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);  /* A B E F, A lowest */
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);  /* G H C D */
    _mm_storeu_si128((__m128i *) &h[0], _mm_blend_epi16(feba, dchg, 0xF0));  /* A B C D */
    _mm_storeu_si128((__m128i *) &h[4], _mm_alignr_epi8(dchg, feba, 8));     /* E F G H */
  }
}

static int has_shani(void) {
  unsigned int a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_SSSE3) || !(c & bit_SSE4_1)) {
    return 0;
  }
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    return 0;
  }
  return (b & (1u << 29)) != 0;  /* CPUID.(EAX=7,ECX=0):EBX.SHA */
}
#endif

/* 1: the SHA extensions, 0: plain C; decided at the first call. */
static int sha_kind = -1;

static void compress(uint32_t h[8], const unsigned char *p, size_t blocks) {
#if defined(__x86_64__)
  if (sha_kind < 0) {
    sha_kind = has_shani();
  }
  if (sha_kind == 1) {
    compress_shani(h, p, blocks);
    return;
  }
#endif
  compress_c(h, p, blocks);
}

/*
 * static native void sha256Blocks(int[] state, byte[] data, int offset, int blocks, boolean plainC)
 * state: the eight working words, updated in place; data[offset, offset + 64 * blocks).
 */
JNIEXPORT void JNICALL Java_org_pocache_coder_IsalNative_sha256Blocks(JNIEnv *env, jclass cls,
    jintArray state, jbyteArray data, jint offset, jint blocks, jboolean plain_c) {
  uint32_t h[8];
  unsigned char *base;
  (void) cls;
  (*env)->GetIntArrayRegion(env, state, 0, 8, (jint *) h);
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  base = (unsigned char *) (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (base == NULL) {
    return;
  }
  if (plain_c) {
    compress_c(h, base + offset, (size_t) blocks);
  } else {
    compress(h, base + offset, (size_t) blocks);
  }
  (*env)->ReleasePrimitiveArrayCritical(env, data, base, JNI_ABORT);
  (*env)->SetIntArrayRegion(env, state, 0, 8, (const jint *) h);
}

/* static native boolean sha256Accelerated(): whether sha256Blocks uses the SHA extensions. */
JNIEXPORT jboolean JNICALL Java_org_pocache_coder_IsalNative_sha256Accelerated(JNIEnv *env, jclass cls) {
  (void) env;
  (void) cls;
#if defined(__x86_64__)
  if (sha_kind < 0) {
    sha_kind = has_shani();
  }
  return sha_kind == 1 ? JNI_TRUE : JNI_FALSE;
#else
  return JNI_FALSE;
#endif
}
