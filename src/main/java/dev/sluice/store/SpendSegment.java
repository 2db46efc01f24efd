package dev.sluice.store;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment file of a {@link SpendBuffer}: its size and lines, how far its rows were
 * posted, and how its rows are read back. Segment files are named by a 20-digit number, so
 * their names sort in the order they were started. Guarded by the buffer that holds it.
 */
final class SpendSegment {
    private static final Logger LOG = LoggerFactory.getLogger(SpendBuffer.class);
    private static final String PREFIX = "segment-";
    private static final String SUFFIX = ".jsonl";

    final Path file;
    long size;
    long lines;
    long readOffset;
    long linesRead;

    SpendSegment(Path file, long size, long lines) {
        this.file = file;
        this.size = size;
        this.lines = lines;
    }

    /** The file name of segment {@code number}. */
    static String name(long number) {
        return String.format("%s%020d%s", PREFIX, number, SUFFIX);
    }

    /** The segment files in {@code folder}, oldest first. */
    static List<Path> files(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(SpendSegment::isSegment).sorted().toList();
        }
    }

    private static boolean isSegment(Path file) {
        String name = file.getFileName().toString();
        return name.startsWith(PREFIX) && name.endsWith(SUFFIX)
                && name.substring(PREFIX.length(), name.length() - SUFFIX.length()).matches("\\d{20}");
    }

    static long number(Path file) {
        String name = file.getFileName().toString();
        return Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
    }

    /** Complete lines: a torn last line has no {@code \n} and is not a row. */
    static long countLines(Path file) throws IOException {
        long lines = 0;
        byte[] block = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(block); n >= 0; n = in.read(block)) {
                for (int i = 0; i < n; i++) {
                    lines += block[i] == '\n' ? 1 : 0;
                }
            }
        }
        return lines;
    }

    /** Up to {@code maxRows} rows from where the last posted chunk ended; {@code folder} names the buffer in warnings. */
    SpendBuffer.Chunk read(int maxRows, Path folder) {
        SpendSegment segment = this;
        List<SpendRow> read = new ArrayList<>();
        long offset = segment.readOffset;
        int lines = 0;
        try (FileChannel channel = FileChannel.open(segment.file, StandardOpenOption.READ)) {
            InputStream in = new BufferedInputStream(Channels.newInputStream(channel.position(offset)));
            ByteArrayOutputStream line = new ByteArrayOutputStream(512);
            while (lines < maxRows && offset < segment.size) {
                int b = in.read();
                if (b < 0) {
                    // Shorter than it was written: cut by something else. Count the rest as read, or
                    // the segment would never be finished.
                    LOG.warn("spend buffer {}: {} ends at byte {}, before the {} bytes written to it", folder,
                            segment.file.getFileName(), offset, segment.size);
                    offset = segment.size;
                    break;
                }
                offset++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                lines++;
                try {
                    read.add(SpendRowJson.read(line.toByteArray()));
                } catch (IOException e) {
                    LOG.warn("spend buffer {}: skipping an unreadable line at byte {} of {}: {}", folder,
                            offset - line.size() - 1, segment.file.getFileName(), firstLine(e.getMessage()));
                }
                line.reset();
            }
            if (line.size() > 0 && offset >= segment.size) {
                LOG.warn("spend buffer {}: skipping a torn last line ({} bytes) of {}, left by a write the process"
                        + " did not finish", folder, line.size(), segment.file.getFileName());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("read spend buffer " + segment.file + ": " + e.getMessage(), e);
        }
        return new SpendBuffer.Chunk(List.copyOf(read), lines, segment.file, segment.readOffset, offset);
    }

    /** Jackson's messages go on to a second line about where the source was. */
    private static String firstLine(String message) {
        int end = message == null ? -1 : message.indexOf('\n');
        return end < 0 ? String.valueOf(message) : message.substring(0, end);
    }
}
