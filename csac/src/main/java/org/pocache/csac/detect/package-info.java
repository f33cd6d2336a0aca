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
 * Straggler detectors: one service-rate sample per DataNode per interval in, the
 * DataNodes judged slow out ({@code median-mad}, {@code three-sigma}; {@code none} lists nobody); chosen by name
 * through {@link org.pocache.csac.detect.Detectors}.
 */
package org.pocache.csac.detect;
