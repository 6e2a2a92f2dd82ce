resource "tenant_client" "worker" {
  name        = "Orders worker"
  app_type    = "non_interactive"
  grant_types = ["client_credentials"]
}

# The worker's secret, for this run only: it is in neither the plan nor the
# state. Needs the read:client_keys scope.
ephemeral "tenant_client_secret" "worker" {
  client_id = tenant_client.worker.client_id
}

# Hand it to where it is needed, e.g. a write-only argument of another
# provider (here a local value, to keep the example self-contained).
locals {
  worker_credentials = {
    client_id     = tenant_client.worker.client_id
    client_secret = ephemeral.tenant_client_secret.worker.client_secret
  }
}
