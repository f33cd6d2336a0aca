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
/**
 * The parity tier: parity values in Redis under keys that name their file, generation
 * and position ({@link org.pocache.cache.ParityKey}), checked on read ({@link
 * org.pocache.cache.ParityValue}) and, under parity protection, sealed ({@link
 * org.pocache.cache.ParitySeal}); {@link org.pocache.cache.RedisParityStore} does the
 * I/O. HDFS-free.
 */
package org.pocache.cache;
