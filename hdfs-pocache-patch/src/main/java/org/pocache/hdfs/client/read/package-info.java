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
 * The read engine: how one fetch of a run of substripes decides, piece by piece, what
 * to read, what to leave to parity, when to ask for the parity, when to decode and when
 * a late read should stop. {@link org.pocache.hdfs.client.read.FetchEngine} makes the
 * decisions on the thread completing the fetch, from {@link
 * org.pocache.hdfs.client.read.FetchEvent}s and an injected {@link
 * org.pocache.hdfs.client.read.Clock}; the I/O (DataNode reads, the Redis GET, decoding,
 * copying into the caller's buffer) is the caller's, behind {@link
 * org.pocache.hdfs.client.read.FetchIo}. Nothing here blocks except on the
 * engine's event queue, so tests drive it with scripted arrival times and a fake clock.
 */
package org.pocache.hdfs.client.read;
