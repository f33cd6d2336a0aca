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
 * The write side of the client: which new files are cached on write ({@link
 * org.pocache.hdfs.client.write.CachedWrites}), the stream that writes HDFS first and
 * encodes the parity as the bytes go by ({@link
 * org.pocache.hdfs.client.write.PoCacheOutputStream}), and the incremental encoder it and
 * the reader fills share ({@link org.pocache.hdfs.client.write.ParityEncoder}). A failing
 * cache never fails or holds up a write: the file is then written without parity.
 */
package org.pocache.hdfs.client.write;
