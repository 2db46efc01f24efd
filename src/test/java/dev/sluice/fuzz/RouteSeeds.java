package dev.sluice.fuzz;

import java.util.List;

/**
 * The valid requests the fuzzer mutates: one or more of each model-call and admin route that
 * takes a JSON body, with the route's own method, and the GET routes whose query a mutation
 * lands in. Ids that name nothing stored keep a mutation from deleting or blocking what the
 * run itself relies on (its virtual key, its team, the config's models).
 */
final class RouteSeeds {
    /** One valid request of a route: what a mutation starts from. */
    record Seed(String method, String path, String body) {}

    /** GET routes whose query a mutation lands in. */
    static final List<String> QUERIES = List.of("/model/info?litellm_model_id=", "/key/info?key=", "/team/info?team_id=",
            "/health?model=", "/key/list?page=", "/v1/models?x=", "/user/info?user_id=", "/user/list?page_size=",
            "/organization/info?organization_id=", "/organization/list?x=", "/customer/info?end_user_id=", "/customer/list?x=",
            "/spend/logs?request_id=", "/spend/logs?api_key=", "/global/spend/logs?api_key=",
            "/global/spend/report?start_date=2025-03-01&end_date=", "/global/spend/report?group_by=", "/model/state?x=",
            "/calls/recent?status=", "/calls/recent?model_group=", "/calls/recent?deployment_id=", "/team/list?x=",
            "/router/settings?x=", "/model_group/info?model_group=");

    private RouteSeeds() {}

    static List<Seed> of(String upstream, String key) {
        String model = "{\"model_name\": \"fuzz-added\", \"litellm_params\": {\"model\": \"openai/b\", \"api_base\": \"" + upstream
                + "\", \"api_key\": \"sk-upstream\", \"rpm\": 10}, \"model_info\": {\"id\": \"fuzz-model\"}}";
        return List.of(
                post("/v1/chat/completions", "{\"model\": \"fuzz-chat\", \"messages\": [{\"role\": \"system\", \"content\": \"be brief\"},"
                        + " {\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"hello\"}]}], \"max_tokens\": 16,"
                        + " \"temperature\": 0.5, \"stream\": false, \"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\","
                        + " \"parameters\": {\"type\": \"object\"}}}], \"metadata\": {\"tags\": [\"a\"]}}"),
                post("/v1/chat/completions", "{\"model\": \"fuzz-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}],"
                        + " \"stream\": true, \"stream_options\": {\"include_usage\": true}, \"fallbacks\": [\"fuzz-chat\"], \"num_retries\": 1}"),
                post("/v1/completions", "{\"model\": \"fuzz-chat\", \"prompt\": [\"hello\"], \"max_tokens\": 5}"),
                post("/v1/embeddings", "{\"model\": \"fuzz-embed\", \"input\": [\"hello\", \"world\"], \"dimensions\": 8}"),
                post("/v1/messages", "{\"model\": \"fuzz-chat\", \"max_tokens\": 16, \"system\": \"be brief\", \"messages\":"
                        + " [{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"hello\"}]}]}"),
                post("/key/generate", "{\"key_alias\": \"k\", \"max_budget\": 1.5, \"budget_duration\": \"1d\", \"models\": [\"fuzz-chat\"],"
                        + " \"rpm_limit\": 100, \"tpm_limit\": 1000, \"max_parallel_requests\": 2, \"team_id\": \"fuzz-team\","
                        + " \"model_max_budget\": {\"fuzz-chat\": {\"budget_limit\": 1, \"time_period\": \"1h\"}}, \"metadata\": {\"a\": 1},"
                        + " \"duration\": \"30d\"}"),
                post("/key/update", "{\"key\": \"" + key + "\", \"max_budget\": 2, \"models\": [], \"rpm_limit\": null}"),
                post("/key/delete", "{\"keys\": [\"sk-does-not-exist\"]}"),
                post("/key/block", "{\"key\": \"sk-does-not-exist\"}"),
                post("/key/unblock", "{\"key\": \"sk-does-not-exist\"}"),
                post("/team/new", "{\"team_alias\": \"t\", \"max_budget\": 10, \"models\": [\"fuzz-chat\"], \"tpm_limit\": 5,"
                        + " \"router_settings\": {\"num_retries\": 2, \"fallbacks\": [{\"fuzz-chat\": [\"fuzz-chat\"]}]}}"),
                post("/team/update", "{\"team_id\": \"fuzz-team\", \"max_budget\": 20, \"budget_duration\": \"30d\"}"),
                post("/team/delete", "{\"team_ids\": [\"no-such-team\"]}"),
                post("/team/member_add", "{\"team_id\": \"fuzz-team\", \"member\": {\"user_id\": \"fuzz-user\", \"role\": \"user\"},"
                        + " \"max_budget_in_team\": 5}"),
                post("/team/member_update", "{\"team_id\": \"fuzz-team\", \"user_id\": \"fuzz-user\", \"role\": \"admin\"}"),
                post("/team/member_delete", "{\"team_id\": \"no-such-team\", \"user_id\": \"fuzz-user\"}"),
                post("/user/new", "{\"user_email\": \"fuzz@example.com\", \"user_role\": \"internal_user_viewer\", \"models\":"
                        + " [\"fuzz-chat\"], \"max_budget\": 10, \"budget_duration\": \"30d\", \"tpm_limit\": 1000, \"rpm_limit\": 10,"
                        + " \"metadata\": {\"desk\": 4}, \"teams\": [\"fuzz-team\"], \"auto_create_key\": false}"),
                post("/user/update", "{\"user_id\": \"fuzz-user\", \"max_budget\": 20, \"user_role\": \"internal_user\"}"),
                post("/user/delete", "{\"user_ids\": [\"no-such-user\"]}"),
                post("/organization/new", "{\"organization_alias\": \"Acme\", \"models\": [\"fuzz-chat\"], \"max_budget\": 100,"
                        + " \"budget_duration\": \"1d\", \"tpm_limit\": 5000, \"rpm_limit\": 50, \"metadata\": {\"region\": \"eu\"}}"),
                new Seed("PATCH", "/organization/update", "{\"organization_id\": \"fuzz-org\", \"max_budget\": 50}"),
                new Seed("DELETE", "/organization/delete", "{\"organization_ids\": [\"no-such-organization\"]}"),
                post("/customer/new", "{\"user_id\": \"buyer\", \"alias\": \"Buyer\", \"max_budget\": 2.5, \"budget_duration\": \"30d\","
                        + " \"rpm_limit\": 3, \"default_model\": \"fuzz-chat\", \"allowed_model_region\": \"eu\"}"),
                post("/customer/update", "{\"user_id\": \"fuzz-customer\", \"blocked\": false, \"max_budget\": 3}"),
                post("/customer/delete", "{\"user_ids\": [\"no-such-customer\"]}"),
                post("/customer/block", "{\"user_ids\": [\"no-such-customer\"]}"),
                post("/end_user/unblock", "{\"user_ids\": [\"no-such-customer\"]}"),
                post("/model/new", model),
                post("/model/update", model),
                post("/model/delete", "{\"id\": \"no-such-model\"}"),
                post("/router/settings/update", "{\"num_retries\": 2, \"timeout\": 30, \"allowed_fails\": 3,"
                        + " \"fallbacks\": [{\"fuzz-chat\": [\"fuzz-chat\"]}]}"),
                post("/spend/calculate", "{\"model\": \"fuzz-chat\", \"messages\": [{\"role\": \"user\", \"content\": \"price me\"}]}"));
    }

    private static Seed post(String path, String body) {
        return new Seed("POST", path, body);
    }
}
