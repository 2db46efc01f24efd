package dev.sluice.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.admin.AccountApiServer.Answer;
import dev.sluice.store.Database;
import dev.sluice.testing.StoreTest;
import java.util.List;

/**
 * The id lists of the account routes ({@code user_ids}, {@code team_ids},
 * {@code organization_ids}) take ids as the store holds them: at most 255 characters. A
 * longer one is a 400 naming its place in the list, before the store sees it; blocking a
 * customer not stored yet used to write the id, and the store's refusal was Sluice's own 500.
 */
class IdListTest {
    private static final String LONGEST = "c".repeat(255);
    private static final String TOO_LONG = "c".repeat(256);

    @StoreTest
    void blockingACustomerByAnIdOfTheLongestLengthStoresIt(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            Answer blocked = api.post("/customer/block", "{\"user_ids\": [\"" + LONGEST + "\"]}");

            assertThat(blocked.status()).as(blocked.toString()).isEqualTo(200);
            assertThat(api.get("/customer/info?end_user_id=" + LONGEST).body().path("blocked").asBoolean()).isTrue();
        }
    }

    @StoreTest
    void anIdOneCharacterLongerIsA400NamingItsPlaceAndNothingIsWritten(Database database) {
        try (AccountApiServer api = AccountApiServer.start(database)) {
            for (String route : List.of("/customer/block", "/customer/unblock", "/customer/delete",
                    "/user/delete", "/team/delete")) {
                String field = route.startsWith("/team/") ? "team_ids" : "user_ids";
                Answer refused = api.post(route, "{\"" + field + "\": [\"ok\", \"" + TOO_LONG + "\"]}");

                assertThat(refused.status()).as(route + " " + refused).isEqualTo(400);
                assertThat(refused.errorCode()).as(route).isEqualTo("invalid_value");
                assertThat(refused.errorParam()).as(route).isEqualTo(field + "[1]");
                assertThat(refused.errorMessage()).as(route).contains("at most 255 characters");
            }
            Answer organizations = api.send("DELETE", "/organization/delete", "{\"organization_ids\": [\"" + TOO_LONG + "\"]}");
            assertThat(organizations.status()).as(organizations.toString()).isEqualTo(400);
            assertThat(organizations.errorParam()).isEqualTo("organization_ids[0]");
            assertThat(api.get("/customer/list").body()).isEmpty();
            assertThat(api.changes()).isEmpty();
        }
    }
}
