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
 * The client: {@link org.pocache.hdfs.client.PoCacheFileSystem} ({@code fs.hdfs.impl})
 * and its read streams: proactive reads, sequential reads with late subblocks rebuilt,
 * short reads raced by rebuilds, and reader fills. The write side is in {@code
 * client.write}, the decisions of one proactive fetch in {@code client.read}, the pooled
 * arrays both use in {@code client.buffer}. A failing cache never fails a read or a write
 * here: every path falls back to HDFS's own stream.
 */
package org.pocache.hdfs.client;
