# PowerShell completion for members: add `members completion powershell | Out-String | Invoke-Expression` to $PROFILE
Register-ArgumentCompleter -Native -CommandName members -ScriptBlock {
  param($wordToComplete, $commandAst, $cursorPosition)
  $commands = @{
    '' = @('students', 'scores', 'magic-link', 'products', 'subscriptions', 'courses', 'report', 'auth', 'api', 'sandbox', 'completion', 'history', 'undo', 'version', 'sync', 'mcp', 'each', 'record', 'lock', 'help')
    'students' = @('list', 'search', 'show', 'get', 'create', 'delete', 'products', 'grant', 'revoke', 'transfer', 'import', 'help')
    'scores' = @('get', 'set', 'add', 'help')
    'products' = @('list', 'get', 'snapshot', 'help')
    'subscriptions' = @('list', 'extend', 'get', 'help')
    'courses' = @('list', 'get', 'accesses', 'help')
    'report' = @('engaged-courses', 'help')
    'auth' = @('login', 'status', 'switch', 'logout', 'token', 'help')
    'record' = @('use', 'status', 'push', 'help')
    'lock' = @('list', 'break', 'help')
  }
  $aliases = @{
  }
  $options = @{
    '' = @('-V', '--version', '-h', '--help')
    'students' = @('-h', '--help')
    'students list' = @('--with-subscriptions', '--page', '--per-page', '--all', '--limit', '-h', '--help')
    'students search' = @('--profiles', '--all-profiles', '-h', '--help')
    'students show' = @('--profiles', '--all-profiles', '-h', '--help')
    'students get' = @('--profiles', '--all-profiles', '-h', '--help')
    'students create' = @('--first-name', '--last-name', '--email', '--phone', '--birth', '--document', '--reference-id', '--reason', '-h', '--help')
    'students delete' = @('--reason', '--forget', '-h', '--help')
    'students products' = @('-h', '--help')
    'students grant' = @('--accession', '--expiration', '--renew', '--include-status-changes', '--reason', '--file', '--concurrency', '--dry-run', '--skip-invalid', '--ignore-extra-columns', '--wait', '--strategy', '-h', '--help')
    'students revoke' = @('--reason', '--file', '--concurrency', '--dry-run', '--skip-invalid', '--ignore-extra-columns', '--wait', '--strategy', '-h', '--help')
    'students transfer' = @('--delete-source', '--include-status-changes', '--dry-run', '--wait', '--reason', '-h', '--help')
    'students import' = @('--reason', '--concurrency', '--dry-run', '--skip-invalid', '--ignore-extra-columns', '--wait', '--strategy', '-h', '--help')
    'students help' = @()
    'scores' = @('-h', '--help')
    'scores get' = @('-h', '--help')
    'scores set' = @('--file', '--wait', '--reason', '-h', '--help')
    'scores add' = @('--file', '--wait', '--reason', '-h', '--help')
    'scores help' = @()
    'magic-link' = @('--expire-in', '--file', '--wait', '--reason', '-h', '--help')
    'products' = @('-h', '--help')
    'products list' = @('--profiles', '--all-profiles', '--page', '--per-page', '--all', '--compare', '-h', '--help')
    'products get' = @('-h', '--help')
    'products snapshot' = @('-h', '--help')
    'products help' = @()
    'subscriptions' = @('-h', '--help')
    'subscriptions list' = @('--profiles', '--all-profiles', '--page', '--per-page', '--all', '--status', '--access', '--product', '--student', '--expiring', '--expired', '-h', '--help')
    'subscriptions extend' = @('--product', '--days', '--until', '--student', '--include-status-changes', '--dry-run', '--wait', '--reason', '-h', '--help')
    'subscriptions get' = @('-h', '--help')
    'subscriptions help' = @()
    'courses' = @('-h', '--help')
    'courses list' = @('--profiles', '--all-profiles', '--page', '--per-page', '--all', '-h', '--help')
    'courses get' = @('-h', '--help')
    'courses accesses' = @('--profiles', '--all-profiles', '--finished', '--not-finished', '--never', '--product', '-h', '--help')
    'courses help' = @()
    'report' = @('-h', '--help')
    'report engaged-courses' = @('--profiles', '--all-profiles', '--top', '--limit', '--cursor', '--max-pages', '--group-by', '--chart', '-h', '--help')
    'report help' = @()
    'auth' = @('-h', '--help')
    'auth login' = @('--token-stdin', '--no-verify', '--activate', '--insecure-storage', '-h', '--help')
    'auth status' = @('--offline', '-h', '--help')
    'auth switch' = @('-h', '--help')
    'auth logout' = @('-h', '--help')
    'auth token' = @('-h', '--help')
    'auth help' = @()
    'api' = @('-X', '--method', '-f', '--field', '--input', '--paginate', '-h', '--help')
    'sandbox' = @('--host', '--port', '--seed', '--students', '--latency', '--fail-rate', '--rate-limit', '--flavor', '--paginator', '--per-page-ignored', '--per-page-max', '--server-tz', '--maintenance', '--data', '--login', '-h', '--help')
    'completion' = @('-h', '--help')
    'history' = @('--student', '--run', '--since', '--limit', '--forget', '--reason', '-h', '--help')
    'undo' = @('--last', '--student', '--reason', '--wait', '-h', '--help')
    'version' = @('-h', '--help')
    'sync' = @('--file', '--product', '--add-only', '--remove-only', '--max-revoke', '--check', '--dry-run', '--plan-out', '--apply', '--include-status-changes', '--ignore-extra-columns', '--concurrency', '--wait', '--reason', '-h', '--help')
    'mcp' = @('--allow-writes', '--max-rows', '--show-personal-data', '--check', '-h', '--help')
    'each' = @('--dry-run', '--first', '--max-rows', '--concurrency', '--only-failed', '--halt', '--wait', '-h', '--help')
    'record' = @('-h', '--help')
    'record use' = @('--password-stdin', '--insecure-storage', '-h', '--help')
    'record status' = @('-h', '--help')
    'record push' = @('--dry-run', '-h', '--help')
    'record help' = @()
    'lock' = @('-h', '--help')
    'lock list' = @('-h', '--help')
    'lock break' = @('--reason', '-h', '--help')
    'lock help' = @()
    'help' = @('-h', '--help')
  }
  $globals = @('-p', '--profile', '-o', '--output', '--json', '--fields', '--no-header', '--csv-raw', '--csv-dialect', '--no-color', '-q', '--quiet', '-v', '--verbose', '--base-url', '--timeout', '--retries', '-y', '--yes', '--no-pager', '--out', '--summary', '--notify', '--notify-always', '--ping')
  $optionValues = @{
    '|-p' = '__complete-profiles'
    '|--profile' = '__complete-profiles'
    '|-o' = @('table', 'json', 'ndjson', 'csv', 'xlsx')
    '|--output' = @('table', 'json', 'ndjson', 'csv', 'xlsx')
    '|--fields' = @()
    '|--csv-dialect' = @('rfc4180', 'excel', 'excel-br')
    '|--base-url' = @()
    '|--timeout' = @()
    '|--retries' = @()
    '|--out' = 'files'
    '|--summary' = 'files'
    '|--notify' = @()
    '|--ping' = @()
    'students list|--fields' = @('id', 'first_name', 'last_name', 'full_name', 'email', 'photo_url', 'phone', 'genre', 'birth', 'document', 'reference_id', 'created_at', 'updated_at', 'subscriptions')
    'students list|--page' = @()
    'students list|--per-page' = @()
    'students list|--limit' = @()
    'students search|--fields' = @('id', 'first_name', 'last_name', 'full_name', 'email', 'photo_url', 'phone', 'genre', 'birth', 'document', 'reference_id', 'created_at', 'updated_at', 'subscriptions')
    'students search|--profiles' = '__complete-profiles'
    'students show|--profiles' = '__complete-profiles'
    'students get|--fields' = @('id', 'first_name', 'last_name', 'full_name', 'email', 'photo_url', 'phone', 'genre', 'birth', 'document', 'reference_id', 'created_at', 'updated_at', 'subscriptions')
    'students get|--profiles' = '__complete-profiles'
    'students create|--fields' = @('id', 'first_name', 'last_name', 'full_name', 'email', 'photo_url', 'phone', 'genre', 'birth', 'document', 'reference_id', 'created_at', 'updated_at', 'subscriptions')
    'students create|--first-name' = @()
    'students create|--last-name' = @()
    'students create|--email' = @()
    'students create|--phone' = @()
    'students create|--birth' = @()
    'students create|--document' = @()
    'students create|--reference-id' = @()
    'students create|--reason' = @()
    'students delete|--reason' = @()
    'students products|--fields' = @('id', 'active', 'status', 'product_id', 'payment_last_date', 'accession_date', 'expiration_date', 'cancel_date', 'product.id', 'product.title', 'product.description', 'product.created_at', 'product.updated_at', 'student.id', 'student.first_name', 'student.last_name', 'student.full_name', 'student.email', 'created_at', 'updated_at')
    'students grant|--accession' = @()
    'students grant|--expiration' = @()
    'students grant|--reason' = @()
    'students grant|--file' = 'files'
    'students grant|--concurrency' = @()
    'students grant|--wait' = @()
    'students grant|--strategy' = @('auto', 'rows', 'snapshot')
    'students revoke|--reason' = @()
    'students revoke|--file' = 'files'
    'students revoke|--concurrency' = @()
    'students revoke|--wait' = @()
    'students revoke|--strategy' = @('auto', 'rows', 'snapshot')
    'students transfer|--wait' = @()
    'students transfer|--reason' = @()
    'students import|--reason' = @()
    'students import|--concurrency' = @()
    'students import|--wait' = @()
    'students import|--strategy' = @('auto', 'rows', 'snapshot')
    'scores get|--fields' = @('score', 'posts', 'comments', 'replies')
    'scores set|--fields' = @('score', 'posts', 'comments', 'replies')
    'scores set|--file' = 'files'
    'scores set|--wait' = @()
    'scores set|--reason' = @()
    'scores add|--fields' = @('score', 'posts', 'comments', 'replies')
    'scores add|--file' = 'files'
    'scores add|--wait' = @()
    'scores add|--reason' = @()
    'magic-link|--fields' = @('expire_in', 'url')
    'magic-link|--expire-in' = @()
    'magic-link|--file' = 'files'
    'magic-link|--wait' = @()
    'magic-link|--reason' = @()
    'products list|--fields' = @('id', 'title', 'description', 'period', 'external_checkout_product', 'lifetime', 'status', 'type', 'sales_page_url', 'support_email', 'trial', 'upsell', 'upsell_url', 'created_at', 'updated_at', 'subscribers.active', 'subscribers.inactive')
    'products list|--profiles' = '__complete-profiles'
    'products list|--page' = @()
    'products list|--per-page' = @()
    'products list|--compare' = @()
    'products get|--fields' = @('id', 'title', 'description', 'period', 'external_checkout_product', 'lifetime', 'status', 'type', 'sales_page_url', 'support_email', 'trial', 'upsell', 'upsell_url', 'created_at', 'updated_at', 'subscribers.active', 'subscribers.inactive')
    'subscriptions list|--fields' = @('id', 'active', 'status', 'product_id', 'payment_last_date', 'accession_date', 'expiration_date', 'cancel_date', 'product.id', 'product.title', 'product.description', 'product.created_at', 'product.updated_at', 'student.id', 'student.first_name', 'student.last_name', 'student.full_name', 'student.email', 'created_at', 'updated_at')
    'subscriptions list|--profiles' = '__complete-profiles'
    'subscriptions list|--page' = @()
    'subscriptions list|--per-page' = @()
    'subscriptions list|--status' = @('active', 'inactive', 'refunded', 'chargeback', 'canceled')
    'subscriptions list|--access' = @('active', 'inactive')
    'subscriptions list|--product' = '__complete-products'
    'subscriptions list|--student' = @()
    'subscriptions list|--expiring' = @()
    'subscriptions extend|--product' = '__complete-products'
    'subscriptions extend|--days' = @()
    'subscriptions extend|--until' = @()
    'subscriptions extend|--student' = @()
    'subscriptions extend|--wait' = @()
    'subscriptions extend|--reason' = @()
    'subscriptions get|--fields' = @('id', 'active', 'status', 'product_id', 'payment_last_date', 'accession_date', 'expiration_date', 'cancel_date', 'product.id', 'product.title', 'product.description', 'product.created_at', 'product.updated_at', 'student.id', 'student.first_name', 'student.last_name', 'student.full_name', 'student.email', 'created_at', 'updated_at')
    'courses list|--fields' = @('id', 'title', 'description', 'status', 'slug', 'url_upsell', 'text_upsell', 'blocked', 'published', 'modules')
    'courses list|--profiles' = '__complete-profiles'
    'courses list|--page' = @()
    'courses list|--per-page' = @()
    'courses get|--fields' = @('id', 'title', 'description', 'status', 'slug', 'url_upsell', 'text_upsell', 'blocked', 'published', 'modules')
    'courses accesses|--fields' = @('id', 'name', 'email', 'course.id', 'course.name', 'course.last_access_at', 'course.finished', 'course.finished_at')
    'courses accesses|--profiles' = '__complete-profiles'
    'courses accesses|--product' = '__complete-products'
    'report engaged-courses|--fields' = @('id', 'user_id', 'course_id', 'course_name', 'product_name', 'first_name', 'last_name', 'phone', 'document', 'email', 'registration_date', 'course_completion_percent', 'course_avg_engagement_score')
    'report engaged-courses|--profiles' = '__complete-profiles'
    'report engaged-courses|--top' = @()
    'report engaged-courses|--limit' = @()
    'report engaged-courses|--cursor' = @()
    'report engaged-courses|--max-pages' = @()
    'report engaged-courses|--group-by' = @('course')
    'api|-X' = @('GET', 'POST', 'PUT', 'PATCH', 'DELETE')
    'api|--method' = @('GET', 'POST', 'PUT', 'PATCH', 'DELETE')
    'api|-f' = @()
    'api|--field' = @()
    'api|--input' = 'files'
    'sandbox|--host' = @()
    'sandbox|--port' = @()
    'sandbox|--seed' = @()
    'sandbox|--students' = @()
    'sandbox|--latency' = @()
    'sandbox|--fail-rate' = @()
    'sandbox|--rate-limit' = @()
    'sandbox|--flavor' = @('default', 'laravel')
    'sandbox|--paginator' = @('length-aware', 'simple')
    'sandbox|--per-page-ignored' = @()
    'sandbox|--per-page-max' = @()
    'sandbox|--server-tz' = @()
    'sandbox|--data' = 'files'
    'history|--student' = @()
    'history|--run' = @()
    'history|--since' = @()
    'history|--limit' = @()
    'history|--forget' = @()
    'history|--reason' = @()
    'undo|--student' = @()
    'undo|--reason' = @()
    'undo|--wait' = @()
    'version|--fields' = @('version', 'node', 'platform')
    'sync|--file' = 'files'
    'sync|--product' = '__complete-products'
    'sync|--max-revoke' = @()
    'sync|--plan-out' = @()
    'sync|--apply' = @()
    'sync|--concurrency' = @()
    'sync|--wait' = @()
    'sync|--reason' = @()
    'mcp|--max-rows' = @()
    'each|--first' = @()
    'each|--max-rows' = @()
    'each|--concurrency' = @()
    'each|--halt' = @('now', 'soon', 'never')
    'each|--wait' = @()
    'record status|--fields' = @('profile', 'home', 'source', 'where', 'answers', 'schema', 'changes', 'problem')
    'lock list|--fields' = @('id', 'base_url', 'products', 'user', 'host', 'pid', 'command', 'since', 'expires')
    'lock break|--reason' = @()
  }
  $argumentValues = @{
    'students grant|0' = @()
    'students grant|*' = '__complete-products'
    'students revoke|0' = @()
    'students revoke|*' = '__complete-products'
    'students import|0' = 'files'
    'students help|0' = @('list', 'search', 'show', 'get', 'create', 'delete', 'products', 'grant', 'revoke', 'transfer', 'import')
    'scores help|0' = @('get', 'set', 'add')
    'products get|0' = '__complete-products'
    'products help|0' = @('list', 'get', 'snapshot')
    'subscriptions help|0' = @('list', 'extend', 'get')
    'courses get|0' = '__complete-courses'
    'courses accesses|0' = '__complete-courses'
    'courses help|0' = @('list', 'get', 'accesses')
    'report help|0' = @('engaged-courses')
    'auth switch|0' = '__complete-profiles'
    'auth help|0' = @('login', 'status', 'switch', 'logout', 'token')
    'completion|0' = @('bash', 'zsh', 'fish', 'powershell')
    'undo|0' = '__complete-undo'
    'each|0' = 'files'
    'record help|0' = @('use', 'status', 'push')
    'lock help|0' = @('list', 'break')
  }
  $words = @($commandAst.CommandElements | Select-Object -Skip 1 | ForEach-Object { $_.ToString() })
  if ($wordToComplete -ne '' -and $words.Count -gt 0) { $words = @($words | Select-Object -SkipLast 1) }
  # Walk the words: subcommands extend the path, an option that takes a value skips it (stacked short
  # flags as commander reads them: the first letter that takes a value takes the rest, or the next word).
  $path = @()
  $nargs = 0
  $pending = $null
  $rest = $false
  foreach ($word in $words) {
    $here = $path -join ' '
    if ($null -ne $pending) { $pending = $null; continue }
    if (-not $rest -and $word -eq '--') { $rest = $true; continue }
    if (-not $rest -and $word.StartsWith('-')) {
      if ($word.Contains('=')) { continue }
      $flags = $(if ($word -match '^-[^-].') { @($word.Substring(1).ToCharArray() | ForEach-Object { "-$_" }) } else { @($word) })
      for ($j = 0; $j -lt $flags.Count; $j++) {
        if ($optionValues.ContainsKey("$here|$($flags[$j])") -or $optionValues.ContainsKey("|$($flags[$j])")) {
          if ($j -eq $flags.Count - 1) { $pending = $flags[$j] }
          break
        }
      }
      continue
    }
    if ($nargs -eq 0 -and $commands.ContainsKey($here) -and $commands[$here] -contains $word) {
      $name = $aliases[(@($path + $word) -join ' ')]
      $path += $(if ($name) { $name } else { $word })
    } else {
      $nargs++
    }
  }
  $here = $path -join ' '
  $candidates = @()
  if ($null -ne $pending) {
    if ($optionValues.ContainsKey("$here|$pending")) { $candidates = $optionValues["$here|$pending"] }
    elseif ($optionValues.ContainsKey("|$pending")) { $candidates = $optionValues["|$pending"] }
  }
  elseif (-not $rest -and $wordToComplete.StartsWith('-')) { $candidates = @($options[$here]) + $globals }
  elseif ($nargs -eq 0 -and $commands.ContainsKey($here)) { $candidates = $commands[$here] }
  elseif ($argumentValues.ContainsKey("$here|$nargs")) { $candidates = $argumentValues["$here|$nargs"] }
  elseif ($argumentValues.ContainsKey("$here|*")) { $candidates = $argumentValues["$here|*"] }
  if ($candidates -is [string] -and $candidates -eq 'files') { return }
  # Values only this machine knows, as `value<TAB>description` lines; the line goes along for its -p.
  if ($candidates -is [string]) { $candidates = @(& members $candidates $commandAst.ToString() 2>$null) }
  $candidates | ForEach-Object {
    $value, $description = "$_" -split "`t", 2
    if ($value -like "$wordToComplete*") {
      $shown = $(if ($description) { "$value  $description" } else { $value })
      [System.Management.Automation.CompletionResult]::new($value, $shown, 'ParameterValue', $shown)
    }
  }
}
