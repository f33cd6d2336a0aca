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
 * JNI shim between org.pocache.coder.IsalNative and ISA-L's erasure code
 * (libisal, Debian's libisal-dev >= 2.30).
 *
 * The Java side has checked every argument (counts, lengths, offsets, buffer
 * kinds) before calling here, so this file only turns Java buffers into
 * pointers and calls ISA-L. An operand is either a direct ByteBuffer or a
 * byte[] (pinned with GetPrimitiveArrayCritical for the duration of the call,
 * after every other JNI call is done, as the JNI rules require).
 */
#include <jni.h>
#include <string.h>
#include <isa-l/erasure_code.h>

#define MAX_OPERANDS 64

static jclass byte_array_class;

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  JNIEnv *env;
  (void) reserved;
  if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_6) != JNI_OK) {
    return JNI_ERR;
  }
  jclass local = (*env)->FindClass(env, "[B");
  if (local == NULL) {
    return JNI_ERR;
  }
  byte_array_class = (jclass) (*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  return byte_array_class == NULL ? JNI_ERR : JNI_VERSION_1_6;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, void *reserved) {
  JNIEnv *env;
  (void) reserved;
  if ((*vm)->GetEnv(vm, (void **) &env, JNI_VERSION_1_6) == JNI_OK && byte_array_class != NULL) {
    (*env)->DeleteGlobalRef(env, byte_array_class);
  }
}

static void throw_iae(JNIEnv *env, const char *msg) {
  jclass c = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
  if (c != NULL) {
    (*env)->ThrowNew(env, c, msg);
  }
}

/* The operands of one call: Java objects, whether each is a byte[], and the pointers. */
typedef struct {
  int n;
  jobject obj[MAX_OPERANDS];
  int is_array[MAX_OPERANDS];
  jint off[MAX_OPERANDS];
  unsigned char *ptr[MAX_OPERANDS];
} operands;

/* Fetches n operands; no critical section is open yet. Returns 0 on success. */
static int fetch(JNIEnv *env, jobjectArray bases, jintArray offsets, int n, operands *ops) {
  int i;
  ops->n = 0;
  if (n < 0 || n > MAX_OPERANDS) {
    throw_iae(env, "too many operands");
    return -1;
  }
  (*env)->GetIntArrayRegion(env, offsets, 0, n, ops->off);
  if ((*env)->ExceptionCheck(env)) {
    return -1;
  }
  for (i = 0; i < n; i++) {
    ops->obj[i] = (*env)->GetObjectArrayElement(env, bases, i);
    ops->n = i + 1;
    if (ops->obj[i] == NULL) {
      throw_iae(env, "null operand");
      return -1;
    }
    ops->is_array[i] = (*env)->IsInstanceOf(env, ops->obj[i], byte_array_class);
    if (!ops->is_array[i]) {
      void *addr = (*env)->GetDirectBufferAddress(env, ops->obj[i]);
      if (addr == NULL) {
        throw_iae(env, "operand is neither a byte[] nor a direct ByteBuffer");
        return -1;
      }
      ops->ptr[i] = (unsigned char *) addr + ops->off[i];
    }
  }
  return 0;
}

/* Pins the byte[] operands. No JNI call other than critical ones may follow until unpin. */
static int pin(JNIEnv *env, operands *ops, int *pinned) {
  int i;
  for (i = 0; i < ops->n; i++) {
    if (ops->is_array[i]) {
      unsigned char *base = (unsigned char *) (*env)->GetPrimitiveArrayCritical(env, ops->obj[i], NULL);
      if (base == NULL) {
        *pinned = i;
        return -1;
      }
      ops->ptr[i] = base + ops->off[i];
    }
  }
  *pinned = ops->n;
  return 0;
}

static void unpin(JNIEnv *env, operands *ops, int pinned, jint mode) {
  int i;
  for (i = pinned - 1; i >= 0; i--) {
    if (ops->is_array[i]) {
      (*env)->ReleasePrimitiveArrayCritical(env, ops->obj[i], ops->ptr[i] - ops->off[i], mode);
    }
  }
}

static void drop(JNIEnv *env, operands *ops) {
  int i;
  for (i = 0; i < ops->n; i++) {
    (*env)->DeleteLocalRef(env, ops->obj[i]);
  }
  ops->n = 0;
}

/*
 * static native void initTables(int k, int rows, byte[] coefficients, ByteBuffer tables)
 * tables: a direct buffer of 32 * k * rows bytes.
 */
JNIEXPORT void JNICALL Java_org_pocache_coder_IsalNative_initTables(JNIEnv *env, jclass cls,
    jint k, jint rows, jbyteArray coefficients, jobject tables) {
  unsigned char a[MAX_OPERANDS * MAX_OPERANDS];
  unsigned char *t;
  (void) cls;
  if (k <= 0 || rows <= 0 || k > MAX_OPERANDS || rows > MAX_OPERANDS) {
    throw_iae(env, "k or rows out of range");
    return;
  }
  (*env)->GetByteArrayRegion(env, coefficients, 0, k * rows, (jbyte *) a);
  if ((*env)->ExceptionCheck(env)) {
    return;
  }
  t = (unsigned char *) (*env)->GetDirectBufferAddress(env, tables);
  if (t == NULL) {
    throw_iae(env, "tables is not a direct buffer");
    return;
  }
  ec_init_tables(k, rows, a, t);
}

/*
 * static native void encode(int len, int k, int rows, ByteBuffer tables,
 *     Object[] inBases, int[] inOffsets, Object[] outBases, int[] outOffsets)
 * out[r] = sum_c M[r][c] * in[c]
 */
JNIEXPORT void JNICALL Java_org_pocache_coder_IsalNative_encode(JNIEnv *env, jclass cls, jint len,
    jint k, jint rows, jobject tables, jobjectArray in_bases, jintArray in_offsets,
    jobjectArray out_bases, jintArray out_offsets) {
  operands in, out;
  unsigned char *t;
  int in_pinned = 0, out_pinned = 0;
  (void) cls;
  if ((*env)->EnsureLocalCapacity(env, 2 * MAX_OPERANDS + 8) != 0) {
    return;
  }
  in.n = 0;
  out.n = 0;
  t = (unsigned char *) (*env)->GetDirectBufferAddress(env, tables);
  if (t == NULL) {
    throw_iae(env, "tables is not a direct buffer");
    return;
  }
  if (fetch(env, in_bases, in_offsets, k, &in) == 0 && fetch(env, out_bases, out_offsets, rows, &out) == 0) {
    if (pin(env, &in, &in_pinned) == 0 && pin(env, &out, &out_pinned) == 0) {
      ec_encode_data(len, k, rows, t, in.ptr, out.ptr);
    }
    unpin(env, &out, out_pinned, 0);
    unpin(env, &in, in_pinned, JNI_ABORT);
  }
  drop(env, &out);
  drop(env, &in);
}

/*
 * static native void update(int len, int k, int rows, int column, ByteBuffer tables,
 *     Object inBase, int inOffset, Object[] outBases, int[] outOffsets)
 * out[r] ^= M[r][column] * in
 */
JNIEXPORT void JNICALL Java_org_pocache_coder_IsalNative_update(JNIEnv *env, jclass cls, jint len,
    jint k, jint rows, jint column, jobject tables, jobject in_base, jint in_offset,
    jobjectArray out_bases, jintArray out_offsets) {
  operands out;
  unsigned char *t;
  unsigned char *in_ptr = NULL;
  int in_is_array;
  int out_pinned = 0;
  (void) cls;
  if ((*env)->EnsureLocalCapacity(env, MAX_OPERANDS + 8) != 0) {
    return;
  }
  out.n = 0;
  t = (unsigned char *) (*env)->GetDirectBufferAddress(env, tables);
  if (t == NULL) {
    throw_iae(env, "tables is not a direct buffer");
    return;
  }
  in_is_array = (*env)->IsInstanceOf(env, in_base, byte_array_class);
  if (!in_is_array) {
    in_ptr = (unsigned char *) (*env)->GetDirectBufferAddress(env, in_base);
    if (in_ptr == NULL) {
      throw_iae(env, "input is neither a byte[] nor a direct ByteBuffer");
      return;
    }
    in_ptr += in_offset;
  }
  if (fetch(env, out_bases, out_offsets, rows, &out) == 0) {
    unsigned char *in_array = NULL;
    if (in_is_array) {
      in_array = (unsigned char *) (*env)->GetPrimitiveArrayCritical(env, in_base, NULL);
      in_ptr = in_array == NULL ? NULL : in_array + in_offset;
    }
    if (in_ptr != NULL && pin(env, &out, &out_pinned) == 0) {
      ec_encode_data_update(len, k, rows, column, t, in_ptr, out.ptr);
    }
    unpin(env, &out, out_pinned, 0);
    if (in_array != NULL) {
      (*env)->ReleasePrimitiveArrayCritical(env, in_base, in_array, JNI_ABORT);
    }
  }
  drop(env, &out);
}
