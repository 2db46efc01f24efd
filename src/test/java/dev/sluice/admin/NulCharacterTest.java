package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.store.Database;
import dev.sluice.testing.StoreTest;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A NUL character in any name, id or key of an admin request (its body or its query) is
 * refused with a 400 naming the field, before the store sees it: PostgreSQL takes no NUL in
 * text, and the answer used to be Sluice's own 500.
 */
class NulCharacterTest {

    @StoreTest
    void aNulInAnyIdOfABodyIsA400NamingTheField(Database database) {
        Map<String, String[]> bad = new LinkedHashMap<>();
        bad.put("/key/delete", new String[] {"{\"keys\": [\"sk-abc\\u0000def\"]}", "keys[0]"});
        bad.put("/key/update", new String[] {"{\"key\": \"sk-abc\", \"team_id\": \"t\\u0000\"}", "team_id"});
        bad.put("/key/block", new String[] {"{\"key\": \"sk-\\u0000\"}", "key"});
        bad.put("/team/new", new String[] {"{\"team_id\": \"team\\u0000one\"}", "team_id"});
        bad.put("/team/delete", new String[] {"{\"team_ids\": [\"ok\", \"t\\u0000\"]}", "team_ids[1]"});
        bad.put("/team/update", new String[] {"{\"team_id\": \"t\", \"metadata\": {\"owner\": \"a\\u0000\"}}", "metadata.owner"});
        try (AccountApiServer api = AccountApiServer.start(database)) {
            bad.forEach((route, sent) -> {
                Answer answer = api.post(route, sent[0]);
                assertThat(answer.status()).as(route + " " + answer).isEqualTo(400);
                assertThat(answer.errorParam()).as(route).isEqualTo(sent[1]);
                assertThat(answer.errorCode()).as(route).isEqualTo("invalid_value");
                assertThat(answer.errorMessage()).as(route).contains("'" + sent[1] + "'").contains("NUL");
            });
            assertThat(api.changes()).isEmpty();
        }
    }

    @StoreTest
    void aNulInAQueryParameterIsA400NamingIt(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            for (String path : new String[] {"/key/list?team_id=a%00b", "/team/info?team_id=%00", "/key/list?user_id=u%00"}) {
                Answer answer = api.get(path);
                String param = path.substring(path.indexOf('?') + 1, path.indexOf('='));
                assertThat(answer.status()).as(path + " " + answer).isEqualTo(400);
                assertThat(answer.errorParam()).as(path).isEqualTo(param);
                assertThat(answer.errorCode()).as(path).isEqualTo("invalid_value");
            }
        }
    }
}
