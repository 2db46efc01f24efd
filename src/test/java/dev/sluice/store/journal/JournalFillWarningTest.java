package dev.sluice.store.journal;

import static dev.sluice.store.journal.JournalFixtures.JOBS;
import static dev.sluice.store.journal.JournalFixtures.drain;
import static dev.sluice.store.journal.JournalFixtures.row;
import static dev.sluice.store.journal.JournalFixtures.small;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The journal says loudly when it passes 80 % of its bound, once, and again only after it fell under 70 %. */
class JournalFillWarningTest {
    private final Logger logger = (Logger) LoggerFactory.getLogger(SpendJournal.class);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    @TempDir
    Path folder;

    @BeforeEach
    void attach() {
        appender.start();
        logger.addAppender(appender);
    }

    @AfterEach
    void detach() {
        logger.detachAppender(appender);
    }

    private List<ILoggingEvent> warnings() {
        return appender.list.stream().filter(event -> event.getLevel() == Level.WARN).toList();
    }

    @Test
    void passingEightyPercentIsWarnedOnceUntilTheJournalFallsUnderSeventy() {
        try (SpendJournal journal = SpendJournal.open(small(folder, 10), JOBS)) {
            int appended = 0;
            while (journal.status().bytesOnDisk() + 200 <= 8192) {
                journal.append(row("call-" + appended++));
            }
            assertThat(warnings()).as("at %d bytes", journal.status().bytesOnDisk()).isEmpty();
            while (journal.status().bytesOnDisk() <= 8192) {
                journal.append(row("call-" + appended++));
            }
            assertThat(warnings()).hasSize(1);
            assertThat(warnings().getFirst().getFormattedMessage()).contains("of its 10240 bytes in use");

            while (journal.append(row("call-" + appended++)).accepted()) {
                // to the bound
            }
            assertThat(warnings()).hasSize(1);

            drain(journal);
            assertThat(appender.list).anySatisfy(event -> assertThat(event.getFormattedMessage())
                    .contains("back under 70 % of its bound"));
            while (journal.status().bytesOnDisk() <= 8192) {
                journal.append(row("again-" + appended++));
            }
            assertThat(warnings()).hasSize(2);
        }
    }
}
