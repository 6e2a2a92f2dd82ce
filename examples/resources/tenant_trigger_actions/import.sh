# By the trigger's id: the resource then holds every action the trigger runs.
terraform import tenant_trigger_actions.post_login post-login
